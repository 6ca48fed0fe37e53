import { e164Or, type Gateway, GatewayError, postJson } from './gateway.ts';

/**
 * The SMS Works: `POST {apiUrl}/v1/message/send` with the account's JWT as the Authorization header;
 * the destination in international form without `+` (447…). `tag` carries our message id, so a
 * report or the provider's dashboard can be matched to it.
 */
export function smsWorksGateway(options: { jwt: string; apiUrl: string }): Gateway {
  return {
    provider: 'smsworks',
    async send({ to, body, sender, reference, reportUrl }) {
      const destination = e164Or('smsworks', to).slice(1);
      const answer = (await postJson(
        'smsworks',
        `${options.apiUrl}/v1/message/send`,
        { authorization: options.jwt },
        {
          sender,
          destination,
          content: body,
          tag: reference,
          ...(reportUrl ? { deliveryreporturl: reportUrl } : {}),
        },
      )) as { messageid?: unknown };
      if (typeof answer.messageid !== 'string' || !answer.messageid)
        throw new GatewayError('smsworks', false, 'the answer had no messageid');
      return { provider: 'smsworks', providerMessageId: answer.messageid };
    },
  };
}
