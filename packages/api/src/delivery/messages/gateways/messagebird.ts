import { e164Or, type Gateway, GatewayError, postJson } from './gateway.ts';

/**
 * MessageBird (Bird): `POST {apiUrl}/messages` with `Authorization: AccessKey <key>`; recipients in
 * E.164 (+44…); `reference` is our message id and comes back on every status report.
 */
export function messageBirdGateway(options: { accessKey: string; apiUrl: string }): Gateway {
  return {
    provider: 'messagebird',
    async send({ to, body, sender, reference, reportUrl }) {
      const recipient = e164Or('messagebird', to);
      const answer = (await postJson(
        'messagebird',
        `${options.apiUrl}/messages`,
        { authorization: `AccessKey ${options.accessKey}` },
        {
          originator: sender,
          recipients: [recipient],
          body,
          reference,
          ...(reportUrl ? { reportUrl } : {}),
        },
      )) as { id?: unknown };
      if (typeof answer.id !== 'string' || !answer.id)
        throw new GatewayError('messagebird', false, 'the answer had no message id');
      return { provider: 'messagebird', providerMessageId: answer.id };
    },
  };
}
