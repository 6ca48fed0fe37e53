import type { PinpointSMSVoiceV2Client, PinpointSMSVoiceV2ClientConfig } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { e164Or, type Gateway, GatewayError, retryableStatus, SEND_TIMEOUT_MS } from './gateway.ts';

export type AwsSmsOptions = {
  region: string;
  /** AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: the service's address when it is not AWS's own. */
  endpoint?: string;
  /** The configuration set whose event destination (SNS → HTTPS) sends delivery events back to us. */
  configurationSet?: string;
  /** Absent: the SDK's standard chain (AWS_ACCESS_KEY_ID…, profiles, instance roles). */
  credentials?: PinpointSMSVoiceV2ClientConfig['credentials'];
};

/**
 * AWS End User Messaging SMS (pinpoint-sms-voice-v2) through the official SDK: `SendTextMessage` to
 * +44…, the sender ID as the origination identity, our message id in `Context` (it comes back on every
 * delivery event). The SDK's own retries are off (one attempt): the job runner owns retries, and a
 * hidden second attempt could send the text twice. The SDK is loaded at the first send, so a server
 * that never sends through AWS never holds it in memory (docs/PERFORMANCE.md's idle goal).
 */
export function awsSmsGateway(options: AwsSmsOptions): Gateway {
  let loaded: Promise<{
    client: PinpointSMSVoiceV2Client;
    sdk: typeof import('@aws-sdk/client-pinpoint-sms-voice-v2');
  }>;
  const load = () => {
    loaded ??= import('@aws-sdk/client-pinpoint-sms-voice-v2').then((sdk) => ({
      sdk,
      client: new sdk.PinpointSMSVoiceV2Client({
        region: options.region,
        maxAttempts: 1,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
      }),
    }));
    return loaded;
  };
  return {
    provider: 'aws-sms',
    async send({ to, body, sender, reference }) {
      const destination = e164Or('aws-sms', to);
      const { client, sdk } = await load();
      const command = new sdk.SendTextMessageCommand({
        DestinationPhoneNumber: destination,
        OriginationIdentity: sender,
        MessageBody: body,
        MessageType: 'TRANSACTIONAL',
        ...(options.configurationSet ? { ConfigurationSetName: options.configurationSet } : {}),
        Context: { reference },
      });
      let answer: { MessageId?: string };
      try {
        answer = await client.send(command, { abortSignal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
      } catch (error) {
        throw awsError(error);
      }
      if (!answer.MessageId) throw new GatewayError('aws-sms', false, 'the answer had no MessageId');
      return { provider: 'aws-sms', providerMessageId: answer.MessageId };
    },
  };
}

/** An SDK failure as a GatewayError: the service's status decides; no status means it never answered. */
function awsError(error: unknown): GatewayError {
  const e = error as Error & { $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = e.$metadata?.httpStatusCode ?? null;
  const throttled = e.name === 'ThrottlingException' || Boolean(e.$retryable);
  const retryable = status === null || retryableStatus(status) || throttled;
  const reason = e.message && e.message !== 'UnknownError' ? `${e.name}: ${e.message}` : e.name || String(error);
  // No answer in time, or the connection dropped: the request may have reached AWS.
  const maybeSent = status === null && /timeout|reset|socket hang up|aborted/i.test(`${e.name} ${e.message}`);
  return new GatewayError('aws-sms', retryable, reason, status, maybeSent);
}
