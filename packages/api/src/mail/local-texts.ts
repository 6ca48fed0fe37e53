import type { Logger } from '../log/logger.ts';

/** A text message the local gateway stood in for: where it went, by which channel and provider, and its words. */
export type LocalText = {
  id: string;
  /** Our message id (message_outbox.id). */
  reference: string;
  channel: 'sms' | 'whatsapp';
  /** The provider it would have gone through had it credentials (`aws-sms`, `smsworks`, `whatsapp`…). */
  provider: string;
  to: string;
  sender: string;
  text: string;
  sentAt: number;
};

/**
 * The local mailbox's phone side: outside production, an SMS or WhatsApp message whose provider has no
 * credentials goes through the local gateway (delivery/messages/gateways/local.ts), which sends nothing
 * and keeps its words here, in this process's memory, newest last, for support staff to read on the
 * console's Mailbox page (`mailbox.listTexts`): the PIN, the short link, a patient's 6-digit code. As the
 * local mailbox, memory rather than the database: throw-away messages holding live PINs and codes,
 * which should not outlive the process or land in backups. Never made in production (server.ts,
 * worker.ts), where a message without a gateway fails instead (docs/decisions/messaging.md).
 */
export type LocalTexts = { readonly messages: LocalText[]; keep(text: Omit<LocalText, 'id' | 'sentAt'>): void };

const KEEP = 200;

export function createLocalTexts(logger?: Logger, clock: () => number = Date.now): LocalTexts {
  const messages: LocalText[] = [];
  return {
    messages,
    keep: (text) => {
      messages.push({ ...text, id: Bun.randomUUIDv7(), sentAt: clock() });
      if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
      // Who and how only: the words hold a PIN or a code.
      logger?.info(`${text.channel} message ${text.reference}: in the local mailbox (not really sent)`);
    },
  };
}
