import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type ParsedAttachment, parseMail } from './mime.ts';

/** One email as the catcher received it. */
export type CaughtMail = {
  from: string;
  /** Envelope recipients, lower-case. */
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Files sent with it (a report's CSV), each read as UTF-8 text. */
  attachments: ParsedAttachment[];
  raw: string;
  receivedAt: number;
};

export type MailCatcher = {
  /** `smtp://127.0.0.1:<port>`: give it to the app as SMTP_URL. */
  url: string;
  /** Everything received so far, oldest first. */
  messages: CaughtMail[];
  /**
   * The oldest message to `to` (case-insensitive) that no earlier `waitFor` returned, waiting up to
   * `timeoutMs` (default 5 s) for it to arrive; rejects on timeout.
   */
  waitFor(to: string, timeoutMs?: number): Promise<CaughtMail>;
  /** Forgets every message. */
  clear(): void;
  stop(): Promise<void>;
};

/**
 * A real SMTP server for tests and the e2e harness, on 127.0.0.1 and a free port. Plain SMTP, any
 * credentials accepted; nothing leaves the machine.
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const returned = new WeakSet<CaughtMail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'catcher' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = parseMail(raw);
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject,
          text: parsed.text,
          ...(parsed.html !== undefined ? { html: parsed.html } : {}),
          attachments: parsed.attachments,
          raw,
          receivedAt: Date.now(),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const take = (to: string): CaughtMail | undefined => {
    const found = messages.find((m) => !returned.has(m) && m.to.includes(to));
    if (found) returned.add(found);
    return found;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(to, timeoutMs = 5000) {
      const address = to.trim().toLowerCase();
      const now = take(address);
      if (now) return Promise.resolve(now);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const found = take(address);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    clear: () => {
      messages.length = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
