import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { ERROR_MESSAGES, FIELD_MESSAGES, type CustomVoice, type SubscriptionLimits } from '@alma/protocol';
import { i18n } from '../../lib/i18n.ts';
import { defaultFreeLimits } from '../../lib/limits.ts';
import { VoiceUploadPanel } from './VoiceUploadPanel.tsx';
import { validateVoiceFile } from './upload-logic.ts';
import type { uploadVoice, VoiceUploadResult } from './upload.ts';

/** The upload panel (SPEC.md VU-1, VU-2, VU-5): consent first, then the spec's §5 checks. */
const voice = { id: 'custom-1', name: 'Mi voz' } as CustomVoice;
let upload: ReturnType<typeof vi.fn<typeof uploadVoice>>;
let onUploaded: ReturnType<typeof vi.fn<(result: VoiceUploadResult) => void>>;

function renderPanel(limits: SubscriptionLimits | null = defaultFreeLimits()) {
  render(
    <I18nextProvider i18n={i18n}>
      <VoiceUploadPanel
        token="t"
        loadLimits={() => Promise.resolve(limits)}
        onUploaded={onUploaded}
        upload={upload}
      />
    </I18nextProvider>,
  );
  return {
    consent: screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Confirmo que la voz es mía o que tengo permiso de su dueño para usarla',
    }),
    file: screen.getByLabelText<HTMLInputElement>('Archivo de audio'),
  };
}

const fileOf = (name: string, size = 1000) => {
  const file = new File([new Uint8Array(Math.min(size, 16))], name, { type: 'application/octet-stream' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

beforeEach(async () => {
  await i18n.changeLanguage('es');
  upload = vi.fn<typeof uploadVoice>((options) => {
    options.onProgress(50);
    return Promise.resolve({ voice, warnings: ['aproximación', 'La muestra es corta'] });
  });
  onUploaded = vi.fn<(result: VoiceUploadResult) => void>();
});
afterEach(cleanup);

describe('VoiceUploadPanel', () => {
  it('VU-1 keeps the file input disabled until consent is given, and says why', () => {
    const { consent, file } = renderPanel();
    expect(file.disabled).toBe(true);
    expect(screen.getByText(FIELD_MESSAGES.es.voiceConsentRequired)).toBeTruthy();
    fireEvent.click(consent);
    expect(file.disabled).toBe(false);
    fireEvent.click(consent);
    expect(file.disabled).toBe(true);
  });

  it('says the builtin voice is an approximation', () => {
    renderPanel();
    expect(screen.getByText(/habla con una aproximación/)).toBeTruthy();
  });

  it('VU-2 refuses a non-audio name with the spec’s text, uploading nothing', async () => {
    const { consent, file } = renderPanel();
    fireEvent.click(consent);
    fireEvent.change(file, { target: { files: [fileOf('notas.txt')] } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Solo se permiten archivos de audio (WAV, MP3, M4A, OGG)',
    );
    expect(upload).not.toHaveBeenCalled();
  });

  it('VU-2 refuses a file over 10 MB with the spec’s text', async () => {
    const { consent, file } = renderPanel();
    fireEvent.click(consent);
    fireEvent.change(file, { target: { files: [fileOf('voz.wav', 10 * 1024 * 1024 + 1)] } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'El archivo es demasiado grande. Máximo 10MB',
    );
    expect(upload).not.toHaveBeenCalled();
  });

  it('VU-5 checks the plan before uploading: no free slot', async () => {
    const full = defaultFreeLimits();
    full.usage.customVoices = 2;
    const { consent, file } = renderPanel(full);
    fireEvent.click(consent);
    fireEvent.change(file, { target: { files: [fileOf('voz.mp3')] } });
    expect((await screen.findByRole('alert')).textContent).toBe(ERROR_MESSAGES.es.voice_limit_reached);
    expect(upload).not.toHaveBeenCalled();
  });

  it('uploads a valid file with its name and reports the new voice and the analysis warnings', async () => {
    const { consent, file } = renderPanel();
    fireEvent.click(consent);
    fireEvent.change(screen.getByLabelText('Nombre (opcional)'), { target: { value: 'Mi voz' } });
    fireEvent.change(file, { target: { files: [fileOf('voz.m4a')] } });
    await waitFor(() =>
      expect(onUploaded).toHaveBeenCalledWith({ voice, warnings: ['aproximación', 'La muestra es corta'] }),
    );
    expect(upload.mock.calls[0]?.[0]).toMatchObject({ name: 'Mi voz', language: 'es', token: 't' });
    expect(await screen.findByText(/Voz «Mi voz» subida/)).toBeTruthy();
    expect(screen.getByText('La muestra es corta')).toBeTruthy();
  });

  it('shows the server’s refusal', async () => {
    const { VoiceUploadError } = await import('./upload.ts');
    upload.mockRejectedValueOnce(
      new VoiceUploadError('voice_file_damaged', ERROR_MESSAGES.es.voice_file_damaged),
    );
    const { consent, file } = renderPanel();
    fireEvent.click(consent);
    fireEvent.change(file, { target: { files: [fileOf('voz.ogg')] } });
    expect((await screen.findByRole('alert')).textContent).toBe(ERROR_MESSAGES.es.voice_file_damaged);
  });
});

describe('validateVoiceFile', () => {
  it('lists every problem in the spec’s order; the first is shown', () => {
    const limits = defaultFreeLimits();
    limits.limits.features = ['basic_chat'];
    limits.usage.customVoices = 2;
    limits.usage.totalStorageBytes = limits.limits.maxTotalStorage;
    limits.usage.currentProcessingUploads = 1;
    expect(validateVoiceFile({ name: 'a.exe', size: 11 * 1024 * 1024 }, limits)).toEqual([
      'voice_format_invalid',
      'voice_file_too_large',
      'upload_feature_not_included',
      'voice_limit_reached',
      'upload_storage_full',
      'upload_concurrency_limit',
    ]);
    expect(validateVoiceFile({ name: 'VOZ.WAV', size: 1000 }, defaultFreeLimits())).toEqual([]);
    expect(validateVoiceFile({ name: 'voz.opus', size: 1000 })).toEqual([]);
  });
});
