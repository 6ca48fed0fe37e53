import type { Locale } from '@medlocker/core';
import { e164Or, type Gateway, GatewayError, postJson } from './gateway.ts';

/**
 * The approved template every business-initiated WhatsApp message goes out as: Meta only lets a
 * business start a conversation with a template, so the rendered text is its one body parameter
 * (docs/decisions/messaging.md "WhatsApp messages are one approved template", which gives the template's text
 * to submit to Meta: fixed words before and after the one placeholder, as Meta requires).
 */
export const WHATSAPP_TEMPLATE = { name: 'medlocker_message', language: 'en_GB' } as const;

/**
 * The template's language for a body in `locales`: its Welsh translation (`cy`) for a Welsh message and
 * for a bilingual one, which opens in Welsh; English (`en_GB`) otherwise (docs/decisions/languages.md).
 */
export const whatsAppLanguage = (locales: readonly Locale[] | undefined) =>
  locales?.[0] === 'cy' ? 'cy' : WHATSAPP_TEMPLATE.language;

/**
 * WhatsApp Cloud API: `POST {apiUrl}/{phoneNumberId}/messages` with a Bearer token, a template message
 * to the patient's number without `+`; `biz_opaque_callback_data` carries our message id, which Meta
 * repeats in the status webhooks.
 */
export function whatsAppGateway(options: { token: string; phoneNumberId: string; apiUrl: string }): Gateway {
  return {
    provider: 'whatsapp',
    async send({ to, body, reference, locales }) {
      const answer = (await postJson(
        'whatsapp',
        `${options.apiUrl}/${options.phoneNumberId}/messages`,
        { authorization: `Bearer ${options.token}` },
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: e164Or('whatsapp', to).slice(1),
          type: 'template',
          template: {
            name: WHATSAPP_TEMPLATE.name,
            language: { code: whatsAppLanguage(locales) },
            // Meta refuses a text parameter with a newline, a tab or more than 4 spaces in a row (#132018),
            // and business templates may have line breaks: the wording goes as one line.
            components: [{ type: 'body', parameters: [{ type: 'text', text: body.replace(/\s+/g, ' ').trim() }] }],
          },
          biz_opaque_callback_data: reference,
        },
      )) as { messages?: { id?: unknown }[] };
      const id = answer.messages?.[0]?.id;
      if (typeof id !== 'string' || !id) throw new GatewayError('whatsapp', false, 'the answer had no message id');
      return { provider: 'whatsapp', providerMessageId: id };
    },
  };
}
