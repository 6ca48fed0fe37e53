import type { Mailer } from '../../../mail/mailer.ts';
import { type Gateway, GatewayError } from './gateway.ts';

/** The Message-ID an outbox email goes out with: ours, so it is known before the server answers. */
export const emailMessageId = (reference: string) => `<${reference}@messages.medlocker>`;

/**
 * Email through the app's mailer (SMTP with nodemailer, or the local mailbox). The Message-ID is made
 * from our message id, so a resend after a crash carries the same one and a mail server or reader can
 * tell it is the same message. SMTP's own classes decide retries: 4xx replies are transient by RFC 5321,
 * 5xx permanent; a connection that failed or timed out is retried.
 */
export function emailGateway(mailer: Mailer): Gateway {
  return {
    provider: 'email',
    async send({ to, body, subject, reference }) {
      const messageId = emailMessageId(reference);
      try {
        await mailer.send({ to, subject: subject ?? '', text: body, messageId });
      } catch (error) {
        const e = error as Error & { responseCode?: number; response?: string };
        const code = typeof e.responseCode === 'number' ? e.responseCode : null;
        const reason = (e.response ?? e.message ?? String(error)).trim();
        throw new GatewayError('email', code === null || code < 500, reason, code);
      }
      return { provider: 'email', providerMessageId: messageId };
    },
  };
}
