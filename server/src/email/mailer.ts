import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Clock } from '../lib/ids.ts';
import type { Log } from '../lib/logger.ts';

/** One message: plain text and simple HTML, both written in the recipient's language. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the message carries; logged with the outbox so a local user can follow it. */
  link?: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (SMTP server accepted it, or file written). */
  send(message: MailMessage): Promise<void>;
  readonly kind: 'smtp' | 'outbox';
}

export interface MailerConfig {
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the outbox goes when there is no SMTP server: `DATA_DIR/outbox`. */
  outboxDir: string;
}

/** SMTP through nodemailer when `SMTP_URL` is set; otherwise the outbox (files + log). */
export function createMailer(
  config: MailerConfig,
  deps: { log: Log; clock: Clock; logLinks?: boolean },
): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createOutboxMailer(config.outboxDir, config.mailFrom, deps);
}

// Quoted-printable keeps links readable in the raw message, whatever the language's accents.
const composed = (from: string, message: MailMessage) => ({
  from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  html: message.html,
  textEncoding: 'quoted-printable' as const,
});

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail(composed(from, message));
    },
  };
}

/**
 * Without SMTP, each message is written as a standard `.eml` file (any mail client opens it)
 * named `<time>-<to>.eml`, and logged at info level — with its link unless `logLinks` is false
 * (production, SPEC.md W-4: the link is a secret; it stays in the file).
 */
export function createOutboxMailer(
  dir: string,
  from: string,
  deps: { log: Log; clock: Clock; logLinks?: boolean },
): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(composed(from, message));
      mkdirSync(dir, { recursive: true });
      const time = deps.clock().toISOString().replace(/[:.]/g, '-');
      const safeTo = message.to.replace(/[^\w.@+-]/g, '_');
      const file = writeNew(dir, `${time}-${safeTo}`, info.message as Buffer);
      deps.log.info(
        {
          to: message.to,
          subject: message.subject,
          ...(deps.logLinks === false ? {} : { link: message.link }),
          file,
        },
        'email written to the outbox (SMTP_URL is not set)',
      );
    },
  };
}

/** Never overwrites: two messages to one address in the same millisecond get `-1`, `-2`, … */
function writeNew(dir: string, base: string, content: Buffer): string {
  for (let n = 0; ; n++) {
    const file = join(dir, n === 0 ? `${base}.eml` : `${base}-${n}.eml`);
    try {
      writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
