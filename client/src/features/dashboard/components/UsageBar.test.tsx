import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../lib/i18n.ts';
import { UsageBar } from './UsageBar.tsx';

function renderBar(used: number, limit: number | null) {
  const { container } = render(
    <I18nextProvider i18n={i18n}>
      <UsageBar label="Messages" used={used} limit={limit} />
    </I18nextProvider>,
  );
  return container.querySelector('.usage-row');
}

beforeAll(() => i18n.changeLanguage('en'));
afterEach(cleanup);

describe('UsageBar (spec §2 Usage)', () => {
  it('is plain below 70 %, warning from 70 %, danger from 90 %', () => {
    expect(renderBar(349, 500)?.getAttribute('data-level')).toBe('normal');
    cleanup();
    expect(renderBar(350, 500)?.getAttribute('data-level')).toBe('warning');
    expect(screen.getByText("You're getting close to your plan's limit.")).toBeTruthy();
    expect(document.querySelector('.meter__fill--warning')).toBeTruthy();
    cleanup();
    expect(renderBar(450, 500)?.getAttribute('data-level')).toBe('danger');
    expect(document.querySelector('.meter__fill--danger')).toBeTruthy();
  });

  it('exposes the value to assistive technology and caps the bar at the limit', () => {
    renderBar(600, 500);
    const bar = screen.getByRole('progressbar', { name: 'Messages' });
    expect(bar.getAttribute('aria-valuenow')).toBe('500');
    expect(bar.getAttribute('aria-valuetext')).toBe('600 of 500');
  });

  it('an unlimited plan shows no bar', () => {
    renderBar(1200, null);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Unlimited on your plan')).toBeTruthy();
  });
});
