import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The newest mail to an address, waiting briefly for it to arrive. */
    async mailTo(email: string, timeoutMs = 5000): Promise<ReceivedMail> {
      const start = Date.now();
      for (;;) {
        const mail = [...received].reverse().find((m) => m.to.includes(email));
        if (mail) return mail;
        if (Date.now() - start > timeoutMs) throw new Error(`no mail to ${email}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset token in a reset mail's link. */
export function resetTokenFrom(mail: ReceivedMail): string {
  const unfolded = mail.raw.replace(/=\r?\n/g, '');
  const match = unfolded.match(/\/reset-password\/([A-Za-z0-9_-]{20,})/);
  if (!match) throw new Error('no reset link in mail');
  return match[1];
}
