import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The Message-ID header, "<…@…>"; the outbox derives it from the delivery's dedupe key, so a re-send is the same mail. */
  messageId?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Nodemailer loads with the first mail rather than with the server's start; the transport is made once. */
function lazyTransport(
  settings:
    | { url: string; connectionTimeout: number; greetingTimeout: number; socketTimeout: number }
    | { streamTransport: true; buffer: true; newline: 'unix' },
): () => Promise<Transporter> {
  let made: Promise<Transporter> | null = null;
  return () => (made ??= import('nodemailer').then((m) => m.default.createTransport(settings)));
}

/** Real SMTP when a URL is configured; otherwise each mail becomes an .eml file under dataDir/mail. */
export function createMailer(options: { smtpUrl: string | null; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    // Short timeouts: a send must end well inside the outbox's claim lease (features/deliveries/sender.ts).
    const transport = lazyTransport({ url: options.smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    return {
      async send(message) {
        await (
          await transport()
        ).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          attachments: message.attachments,
        });
      },
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(options.dataDir, 'mail');
  return {
    async send(message) {
      const info = await (
        await transport()
      ).sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        attachments: message.attachments,
      });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      // The stream transport with `buffer: true` answers the message as a Buffer; its typings allow a stream too.
      await fs.writeFile(file, info.message as Buffer);
      options.log.info({ file }, `mail written: ${message.subject}`);
    },
  };
}
