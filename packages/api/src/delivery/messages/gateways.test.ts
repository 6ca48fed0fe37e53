import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startMailCatcher } from '../../mail/mail-catcher.ts';
import { createSmtpMailer } from '../../mail/mailer.ts';
import { emailMessageId } from './gateways/email.ts';
import { type Gateway, GatewayError, toE164 } from './gateways/gateway.ts';
import { awsSmsGateway, emailGateway, messageBirdGateway, smsWorksGateway, whatsAppGateway } from './gateways/index.ts';

/** What the fake provider received. */
type Seen = { method: string; path: string; headers: Headers; body: string };

/**
 * A local HTTP server standing in for a provider: it records each request and answers with what the
 * test queued (status and JSON body), or 200 `ok` when nothing is queued.
 */
function fakeProvider() {
  const seen: Seen[] = [];
  const answers: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body: await req.text() });
      const answer = answers.shift() ?? { status: 200, body: { ok: true } };
      return new Response(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    seen,
    answer: (status: number, body: unknown, headers?: Record<string, string>) =>
      answers.push({ status, body, headers }),
    reset: () => {
      seen.length = 0;
      answers.length = 0;
    },
    stop: () => server.stop(true),
  };
}

const request = {
  to: '07700 900123',
  body: 'Your order is ready: PIN 1234 5678',
  sender: 'HighStPharm',
  reference: '0193a1b2-0000-7000-8000-000000000001',
  reportUrl: 'https://medlocker.test/hooks/messages/x/1/token',
};

/** The GatewayError a send threw (fails the test when it resolved). */
async function refusal(gateway: Gateway): Promise<GatewayError> {
  try {
    await gateway.send(request);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('the send was not refused');
}

const provider = fakeProvider();
afterEach(() => provider.reset());
afterAll(() => provider.stop());

describe('phone numbers', () => {
  it('writes UK and international forms as E.164 and refuses what is not a number', () => {
    expect(toE164('07700 900123')).toBe('+447700900123');
    expect(toE164('+44 (0)7700-900123')).toBe('+447700900123');
    expect(toE164('00447700900123')).toBe('+447700900123');
    expect(toE164('447700900123')).toBe('+447700900123');
    expect(toE164('hello')).toBeNull();
    expect(toE164('+44 12')).toBeNull();
  });
});

describe('The SMS Works', () => {
  const gateway = () => smsWorksGateway({ jwt: 'JWT eyJ.test.jwt', apiUrl: provider.url });

  it('POSTs the message to /v1/message/send with the JWT, the number as 447… and our id as the tag', async () => {
    provider.answer(201, { messageid: 'sw-123', status: 'SENT', credits: 1 });
    expect(await gateway().send(request)).toEqual({ provider: 'smsworks', providerMessageId: 'sw-123' });
    const [sent] = provider.seen;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/message/send');
    expect(sent?.headers.get('authorization')).toBe('JWT eyJ.test.jwt');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      sender: 'HighStPharm',
      destination: '447700900123',
      content: request.body,
      tag: request.reference,
      deliveryreporturl: request.reportUrl,
    });
  });

  it('calls 429 and 5xx retryable and a 400 permanent, with the provider’s reason', async () => {
    provider.answer(429, { message: 'Too many requests' });
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: 'Too many requests', httpStatus: 429 });
    provider.answer(503, 'Service Unavailable');
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: 'Service Unavailable' });
    provider.answer(400, { message: 'Invalid destination number' });
    expect(await refusal(gateway())).toMatchObject({ retryable: false, reason: 'Invalid destination number' });
  });

  it('refuses a number it cannot write, without calling the provider', async () => {
    const error = await gateway()
      .send({ ...request, to: 'not a phone' })
      .catch((e) => e);
    expect(error).toMatchObject({ retryable: false, reason: 'Not a phone number: not a phone' });
    expect(provider.seen).toEqual([]);
  });

  it('calls a provider that cannot be reached retryable', async () => {
    const down = smsWorksGateway({ jwt: 'x', apiUrl: 'http://127.0.0.1:1' });
    expect(await refusal(down)).toMatchObject({ retryable: true, httpStatus: null });
  });
});

describe('MessageBird', () => {
  const gateway = () => messageBirdGateway({ accessKey: 'live_abc', apiUrl: provider.url });

  it('POSTs to /messages with the AccessKey, recipients in +44 form, our id as reference and the report URL', async () => {
    provider.answer(201, { id: 'mb-e8077d80', href: 'x', reference: request.reference });
    expect(await gateway().send(request)).toEqual({ provider: 'messagebird', providerMessageId: 'mb-e8077d80' });
    const [sent] = provider.seen;
    expect(sent?.path).toBe('/messages');
    expect(sent?.headers.get('authorization')).toBe('AccessKey live_abc');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      originator: 'HighStPharm',
      recipients: ['+447700900123'],
      body: request.body,
      reference: request.reference,
      reportUrl: request.reportUrl,
    });
  });

  it('calls 429 and 5xx retryable and a 422 permanent with the errors’ descriptions', async () => {
    provider.answer(429, { errors: [{ code: 429, description: 'Rate limit exceeded' }] });
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: 'Rate limit exceeded' });
    provider.answer(500, { errors: [{ code: 99, description: 'Internal error' }] });
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: 'Internal error' });
    provider.answer(422, {
      errors: [{ code: 9, description: 'no (correct) recipients found', parameter: 'recipients' }],
    });
    expect(await refusal(gateway())).toMatchObject({ retryable: false, reason: 'no (correct) recipients found' });
  });
});

describe('WhatsApp Cloud API', () => {
  const gateway = () =>
    whatsAppGateway({ token: 'EAAG-token', phoneNumberId: '1065', apiUrl: `${provider.url}/v21.0` });

  it('POSTs a template message to /{phone-number-id}/messages with the Bearer token and our id as callback data', async () => {
    provider.answer(200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: '447700900123', wa_id: '447700900123' }],
      messages: [{ id: 'wamid.HBgM' }],
    });
    expect(await gateway().send(request)).toEqual({ provider: 'whatsapp', providerMessageId: 'wamid.HBgM' });
    const [sent] = provider.seen;
    expect(sent?.path).toBe('/v21.0/1065/messages');
    expect(sent?.headers.get('authorization')).toBe('Bearer EAAG-token');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '447700900123',
      type: 'template',
      template: {
        name: 'medlocker_message',
        language: { code: 'en_GB' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: request.body }] }],
      },
      biz_opaque_callback_data: request.reference,
    });
  });

  it('sends a Welsh message, and a bilingual one (Welsh first), as the template’s Welsh translation', async () => {
    for (const [locales, code] of [
      [['cy'], 'cy'],
      [['cy', 'en'], 'cy'],
      [['en'], 'en_GB'],
    ] as const) {
      provider.answer(200, { messages: [{ id: `wamid.${code}` }] });
      await gateway().send({ ...request, body: 'Mae eich archeb yn barod.', locales });
      expect(JSON.parse(provider.seen.at(-1)?.body ?? '').template.language).toEqual({ code });
    }
  });

  it('sends a business’s multi-line wording as one line: a template parameter may hold no newline, tab or 4 spaces in a row', async () => {
    provider.answer(200, { messages: [{ id: 'wamid.2' }] });
    await gateway().send({ ...request, body: 'Your order is ready.\r\n\nPIN 1234 5678\tat Front.     Thanks ' });
    const sent = JSON.parse(provider.seen[0]?.body ?? '');
    expect(sent.template.components[0].parameters[0].text).toBe('Your order is ready. PIN 1234 5678 at Front. Thanks');
  });

  it('calls 429 and 5xx retryable and a 400 permanent with the error’s message', async () => {
    provider.answer(429, { error: { message: '(#130429) Rate limit hit', code: 130429 } });
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: '(#130429) Rate limit hit' });
    provider.answer(502, { error: { message: 'Bad gateway' } });
    expect(await refusal(gateway())).toMatchObject({ retryable: true });
    provider.answer(400, {
      error: { message: '(#132001) Template name does not exist in the translation', code: 132001 },
    });
    expect(await refusal(gateway())).toMatchObject({
      retryable: false,
      reason: '(#132001) Template name does not exist in the translation',
    });
  });
});

describe('AWS End User Messaging SMS', () => {
  const gateway = () =>
    awsSmsGateway({
      region: 'eu-west-2',
      endpoint: provider.url,
      configurationSet: 'medlocker-events',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    });

  it('sends SendTextMessage with the SDK’s JSON protocol, signed, +44 number and our id in Context', async () => {
    provider.answer(200, { MessageId: 'aws-msg-1' }, { 'content-type': 'application/x-amz-json-1.0' });
    expect(await gateway().send(request)).toEqual({ provider: 'aws-sms', providerMessageId: 'aws-msg-1' });
    const [sent] = provider.seen;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/');
    expect(sent?.headers.get('x-amz-target')).toBe('PinpointSMSVoiceV2.SendTextMessage');
    expect(sent?.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(sent?.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-2\/sms-voice\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      DestinationPhoneNumber: '+447700900123',
      OriginationIdentity: 'HighStPharm',
      MessageBody: request.body,
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'medlocker-events',
      Context: { reference: request.reference },
    });
  });

  it('calls throttling and 5xx retryable, once each (no SDK retries), and a validation error permanent', async () => {
    const json = { 'content-type': 'application/x-amz-json-1.0' };
    provider.answer(429, { __type: 'ThrottlingException', message: 'Rate exceeded' }, json);
    expect(await refusal(gateway())).toMatchObject({ retryable: true, reason: 'ThrottlingException: Rate exceeded' });
    expect(provider.seen).toHaveLength(1);
    provider.answer(500, { __type: 'InternalServerException', message: 'Internal failure' }, json);
    expect(await refusal(gateway())).toMatchObject({ retryable: true, httpStatus: 500 });
    provider.answer(400, { __type: 'ValidationException', message: 'Invalid destination', Reason: 'OTHER' }, json);
    expect(await refusal(gateway())).toMatchObject({
      retryable: false,
      reason: 'ValidationException: Invalid destination',
      httpStatus: 400,
    });
    expect(provider.seen).toHaveLength(3);
  });
});

describe('email over SMTP', () => {
  let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(() => catcher.stop());

  it('sends through the mailer with a Message-ID made from our id', async () => {
    const gateway = emailGateway(createSmtpMailer(catcher.url, 'High St <no-reply@pharmacy.test>'));
    const result = await gateway.send({ ...request, to: 'ada@example.com', subject: 'Your order is ready' });
    expect(result).toEqual({ provider: 'email', providerMessageId: emailMessageId(request.reference) });
    const mail = await catcher.waitFor('ada@example.com');
    expect(mail.subject).toBe('Your order is ready');
    expect(mail.text).toBe(request.body);
    expect(mail.raw).toContain(`Message-ID: ${emailMessageId(request.reference)}`);
  });

  it('calls an SMTP 4xx reply or a dead server retryable and a 5xx reply permanent, with the server’s words', async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const error = Object.assign(new Error(address.address.startsWith('busy') ? 'Mailbox busy' : 'No such user'), {
          responseCode: address.address.startsWith('busy') ? 451 : 550,
        });
        callback(error);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.server.address() as AddressInfo;
    try {
      const gateway = emailGateway(createSmtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@pharmacy.test'));
      const busy = await gateway.send({ ...request, to: 'busy@example.com' }).catch((e) => e);
      expect(busy).toMatchObject({ retryable: true, httpStatus: 451 });
      expect(busy.reason).toContain('Mailbox busy');
      const gone = await gateway.send({ ...request, to: 'gone@example.com' }).catch((e) => e);
      expect(gone).toMatchObject({ retryable: false, httpStatus: 550 });
      expect(gone.reason).toContain('No such user');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const dead = emailGateway(createSmtpMailer('smtp://127.0.0.1:1', 'no-reply@pharmacy.test'));
    expect(await dead.send({ ...request, to: 'x@example.com' }).catch((e) => e)).toMatchObject({ retryable: true });
  });
});
