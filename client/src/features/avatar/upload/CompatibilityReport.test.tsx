import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { CompatibilityReport as Report } from '@alma/protocol';
import { i18n } from '../../../lib/i18n.ts';
import { CompatibilityReport } from './CompatibilityReport.tsx';

const report: Report = {
  score: 93,
  capabilities: [{ id: 'skeleton', coverage: 1, works: true }],
  works: ['skeleton'],
  missing: [],
  warnings: [],
  repaired: [{ code: 'ACCESSOR_WEIGHTS_NON_NORMALIZED', count: 448 }],
  removedAnimations: 2,
  droppedExtensions: [],
  extensions: ['EXT_meshopt_compression', 'KHR_texture_basisu'],
};

afterEach(cleanup);

describe('the compatibility report says what processing did (SPEC AU-12)', () => {
  it.each([
    [
      'es',
      'Qué hizo el procesamiento',
      [
        'Reparado: Pesos de piel que no suman 1 (448)',
        '2 animaciones incluidas quitadas: Alma anima el avatar por sí misma',
        'Extensiones glTF conservadas: EXT_meshopt_compression, KHR_texture_basisu',
      ],
    ],
    [
      'en',
      'What processing did',
      [
        "Repaired: Skin weights that don't add up to 1 (448)",
        '2 embedded animations removed: Alma animates the avatar itself',
        'glTF extensions kept: EXT_meshopt_compression, KHR_texture_basisu',
      ],
    ],
  ])('in %s: repairs in plain words, animations removed, extensions kept', async (language, label, notes) => {
    await i18n.changeLanguage(language);
    render(
      <I18nextProvider i18n={i18n}>
        <CompatibilityReport report={report} />
      </I18nextProvider>,
    );
    const list = screen.getByRole('list', { name: label });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(notes);
  });

  it('shows no such list when processing changed nothing worth telling', async () => {
    await i18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18n}>
        <CompatibilityReport report={{ ...report, repaired: [], removedAnimations: 0, extensions: [] }} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('list', { name: 'What processing did' })).toBeNull();
  });
});
