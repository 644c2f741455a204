import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../lib/i18n.ts';
import { FileInput } from './FileInput.tsx';

afterEach(cleanup);

describe('FileInput', () => {
  it("speaks the app's language, not the browser's: a themed button, then the chosen file's name", async () => {
    for (const [language, button, none] of [
      ['es', 'Elegir archivo', 'Ningún archivo elegido'],
      ['en', 'Choose file', 'No file chosen'],
    ] as const) {
      await i18n.changeLanguage(language);
      const onChange = vi.fn();
      const { container } = render(
        <I18nextProvider i18n={i18n}>
          <label htmlFor="file">Modelo</label>
          <FileInput id="file" accept=".glb" onChange={onChange} />
        </I18nextProvider>,
      );
      const input = screen.getByLabelText<HTMLInputElement>('Modelo');
      expect(input.type).toBe('file');
      expect(input.className).toBe('file-input__native');
      expect(container.querySelector('.file-input__button')?.textContent).toBe(button);
      expect(container.querySelector('.file-input__name')?.textContent).toBe(none);
      const file = new File(['x'], 'mi-avatar.glb');
      fireEvent.change(input, { target: { files: [file] } });
      expect(onChange).toHaveBeenCalledTimes(1);
      expect(container.querySelector('.file-input__name')?.textContent).toBe('mi-avatar.glb');
      cleanup();
    }
  });
});
