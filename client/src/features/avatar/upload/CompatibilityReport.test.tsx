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

describe('the compatibility report says what the model cannot do (SPEC AU-14)', () => {
  const staticMesh: Report = {
    ...report,
    score: 0,
    capabilities: [{ id: 'skeleton', coverage: 0, works: false }],
    works: [],
    missing: ['skeleton'],
    warnings: ['static_mesh', 'no_skeleton', 'no_lip_sync'],
    repaired: [],
    removedAnimations: 0,
    extensions: [],
  };

  it.each([
    [
      'es',
      'Lo que este modelo no puede hacer',
      'Un modelo estático (sin esqueleto ni formas faciales): no puede hablar ni hacer gestos; en el escenario se balancea suavemente.',
    ],
    [
      'en',
      'What this model cannot do',
      'A static model (no skeleton, no face shapes): it cannot speak or gesture; on the stage it sways gently.',
    ],
  ])('in %s: a static mesh cannot speak or gesture, said once', async (language, label, line) => {
    await i18n.changeLanguage(language);
    render(
      <I18nextProvider i18n={i18n}>
        <CompatibilityReport report={staticMesh} />
      </I18nextProvider>,
    );
    const list = screen.getByRole('list', { name: label });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([line]);
  });

  it('a skinned model without mouth shapes says its lips do not move; unknown codes are not shown', async () => {
    await i18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18n}>
        <CompatibilityReport report={{ ...report, warnings: ['no_lip_sync', 'from_the_future'] }} />
      </I18nextProvider>,
    );
    const list = screen.getByRole('list', { name: 'What this model cannot do' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['No mouth shapes or jaw: its lips do not move when it speaks.']);
  });

  it('shows no such list for a model that can do everything', async () => {
    await i18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18n}>
        <CompatibilityReport report={report} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('list', { name: 'What this model cannot do' })).toBeNull();
  });
});
