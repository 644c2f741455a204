import { expect, test, type Page } from '@playwright/test';

/**
 * What a person does first: sign up in three steps, pick an avatar and a voice, reach the chat,
 * type a message and watch the companion's reply stream in — in Spanish and in English.
 * Screenshots of each screen are kept under tests/e2e/artifacts.
 */
const TEXT = {
  es: {
    name: 'Nombre',
    email: 'Email',
    password: 'Contraseña',
    confirm: 'Confirmar contraseña',
    next: 'Continuar',
    terms: /Acepto los/,
    create: 'Crear cuenta',
    avatars: 'Avatares del sistema',
    voices: 'Voces del sistema',
    finish: 'Empezar a chatear',
    input: 'Escribe tu mensaje',
    online: 'En línea',
    messages: 'Mensajes',
    say: 'Hola, me llamo Lucía. Hoy estoy un poco cansada.',
    expectName: 'Lucía',
  },
  en: {
    name: 'Name',
    email: 'Email',
    password: 'Password',
    confirm: 'Confirm password',
    next: 'Continue',
    terms: /I accept the/,
    create: 'Create account',
    avatars: 'System avatars',
    voices: 'System voices',
    finish: 'Start chatting',
    input: 'Write your message',
    online: 'Online',
    messages: 'Messages',
    say: "Hi! My name is Sam and I'm a bit tired today.",
    expectName: 'Sam',
  },
} as const;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
  await page.screenshot({ path: `tests/e2e/artifacts/screens/${test.info().project.name}-${name}.png` });
}

for (const language of ['es', 'en'] as const) {
  test.describe(`first conversation (${language})`, () => {
    test.use({ locale: language === 'es' ? 'es-ES' : 'en-US' });

    test('register → onboarding → chat → the reply streams in', async ({ page }) => {
      const t = TEXT[language];
      const email = `e2e-${language}-${test.info().project.name}-${Date.now()}@example.com`;

      await page.goto('/register');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await shot(page, `${language}-register-1`);
      await page.getByLabel(t.name, { exact: true }).fill(language === 'es' ? 'Lucía' : 'Sam');
      await page.getByLabel(t.email, { exact: true }).fill(email);
      await page.getByRole('button', { name: t.next }).click();

      await page.getByLabel(t.password, { exact: true }).fill('Secret123');
      await page.getByLabel(t.confirm, { exact: true }).fill('Secret123');
      await shot(page, `${language}-register-2`);
      await page.getByRole('button', { name: t.next }).click();

      await page.getByLabel(t.terms).check();
      await shot(page, `${language}-register-3`);
      await page.getByRole('button', { name: t.create, exact: true }).click();

      await expect(page).toHaveURL(/\/onboarding/);
      await page.getByRole('radiogroup', { name: t.avatars }).getByRole('radio').first().check();
      await shot(page, `${language}-onboarding-avatar`);
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('radiogroup', { name: t.voices }).getByRole('radio').first().check();
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('button', { name: t.finish }).click();

      await expect(page).toHaveURL(/\/chat/);
      await expect(page.getByText(t.online).first()).toBeVisible();
      await shot(page, `${language}-chat-empty`);

      // Watch the message list while the reply arrives: a streamed reply shows growing text.
      const log = page.getByRole('log', { name: t.messages });
      await log.evaluate((el) => {
        const lengths: number[] = [];
        (window as unknown as { __lengths: number[] }).__lengths = lengths;
        new MutationObserver(() => lengths.push(el.textContent?.length ?? 0)).observe(el, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
      const input = page.getByLabel(t.input);
      await input.fill(t.say);
      await input.press('Enter');

      await expect(log.getByText(t.say)).toBeVisible();
      await expect(input).toHaveValue('');
      await shot(page, `${language}-chat-streaming`);
      // The companion answers in the user's language and remembers the name just given.
      await expect(log).toContainText(t.expectName, { timeout: 20_000 });
      await expect(page.getByRole('button', { name: language === 'es' ? 'Enviar' : 'Send' })).toBeDisabled();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, {
        timeout: 20_000,
      });
      const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths);
      const distinct = new Set(lengths);
      expect(distinct.size, 'the reply should appear in several steps, not at once').toBeGreaterThan(3);
      await shot(page, `${language}-chat-replied`);

      // After a reload the conversation is still there (it was stored, not only shown).
      await page.reload();
      await expect(page.getByRole('log', { name: t.messages }).getByText(t.say)).toBeVisible();
    });
  });
}
