import type { Language } from '@alma/protocol';
import type { MailMessage } from './mailer.ts';

/**
 * The two emails Alma sends, in the recipient's language: plain text plus simple HTML with the
 * same words. Values are escaped for HTML; links are built by the caller from APP_URL.
 */
interface LinkEmail {
  to: string;
  name: string;
  language: Language;
  link: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(
  input: LinkEmail,
  words: { subject: string; greeting: string; body: string; button: string; ignore: string },
): MailMessage {
  const text = [words.greeting, '', words.body, '', input.link, '', words.ignore, '', '— Alma'].join('\n');
  const html = `<!doctype html>
<html lang="${input.language}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">
<p>${escapeHtml(words.greeting)}</p>
<p>${escapeHtml(words.body)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 18px;background:#7c3aed;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(words.button)}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(input.link)}</p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(words.ignore)}</p>
<p>— Alma</p>
</body></html>`;
  return { to: input.to, subject: words.subject, text, html, link: input.link };
}

export function resetPasswordEmail(input: LinkEmail & { ttlMinutes: number }): MailMessage {
  const { name, ttlMinutes } = input;
  return render(
    input,
    input.language === 'es'
      ? {
          subject: 'Restablece tu contraseña de Alma',
          greeting: `Hola, ${name}:`,
          body: `Hemos recibido una solicitud para restablecer tu contraseña. Abre este enlace para elegir una nueva; caduca en ${ttlMinutes} minutos y solo se puede usar una vez.`,
          button: 'Restablecer contraseña',
          ignore: 'Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.',
        }
      : {
          subject: 'Reset your Alma password',
          greeting: `Hi ${name},`,
          body: `We received a request to reset your password. Open this link to choose a new one; it expires in ${ttlMinutes} minutes and works only once.`,
          button: 'Reset password',
          ignore: "If you didn't ask for this, ignore this message: your password stays the same.",
        },
  );
}

export function verifyEmailEmail(input: LinkEmail & { ttlHours: number }): MailMessage {
  const { name, ttlHours } = input;
  return render(
    input,
    input.language === 'es'
      ? {
          subject: 'Confirma tu email en Alma',
          greeting: `Hola, ${name}:`,
          body: `Gracias por crear tu cuenta. Abre este enlace para confirmar tu email; caduca en ${ttlHours} horas.`,
          button: 'Confirmar email',
          ignore: 'Si no has creado una cuenta en Alma, ignora este mensaje.',
        }
      : {
          subject: 'Confirm your email for Alma',
          greeting: `Hi ${name},`,
          body: `Thanks for creating your account. Open this link to confirm your email; it expires in ${ttlHours} hours.`,
          button: 'Confirm email',
          ignore: "If you didn't create an Alma account, ignore this message.",
        },
  );
}
