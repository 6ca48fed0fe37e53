import type { LocalTexts } from '../../../mail/local-texts.ts';
import type { Gateway, ProviderName } from './gateway.ts';

/**
 * The development gateway (DESIGN.md: "a dev gateway that records to the outbox"): used outside
 * production for a provider with no credentials, so the demo works without any. It sends nothing; the
 * sender records the message delivered (provider `local`) and says so on the order's timeline, and the
 * words go to the local mailbox's texts (`texts`, when the process keeps them), where support staff read
 * the PIN, the short link or a patient's code on the console's Mailbox page.
 */
export function localGateway(standsInFor: ProviderName, texts?: LocalTexts): Gateway {
  return {
    provider: 'local',
    send: async ({ reference, to, body, sender }) => {
      // Email always has a gateway outside production (SMTP or the local mailbox itself).
      if (standsInFor !== 'email')
        texts?.keep({
          reference,
          channel: standsInFor === 'whatsapp' ? 'whatsapp' : 'sms',
          provider: standsInFor,
          to,
          sender,
          text: body,
        });
      return { provider: 'local', providerMessageId: `local:${reference}` };
    },
  };
}
