import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { startFakeJudopay } from './fake-judopay.ts';
import {
  cardSchemeOf,
  JUDOPAY_API_VERSION,
  JudopayError,
  judopayClient,
  penceOf,
  readReceipt,
  sameJudoId,
} from './judopay.ts';

const account = { token: 'tok-judo-test-1', secret: 'sec-judo-test-1' };
const judo = startFakeJudopay([account]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const client = (credentials = account) => judopayClient({ apiUrl: judo.url, ...credentials });

const request = {
  judoId: '100100100',
  amount: 990,
  currency: 'GBP',
  yourConsumerReference: 'patient-1',
  yourPaymentReference: 'ml_ref_1',
};

/** The JudopayError a call threw (fails the test when it resolved). */
async function refusal(call: Promise<unknown>): Promise<JudopayError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(JudopayError);
    return error as JudopayError;
  }
  throw new Error('the call was not refused');
}

describe('amounts', () => {
  it('reads decimal pounds as pence from the digits, numbers and strings alike', () => {
    expect(penceOf(9.9)).toBe(990);
    expect(penceOf('9.90')).toBe(990);
    expect(penceOf(0.1)).toBe(10);
    expect(penceOf(1234.56)).toBe(123456);
    expect(penceOf('5')).toBe(500);
    expect(penceOf(9.999)).toBeNull();
    expect(penceOf(-1)).toBeNull();
    expect(penceOf('£9.90')).toBeNull();
    expect(penceOf(null)).toBeNull();
  });

  it('compares judo ids with or without separators', () => {
    expect(sameJudoId('100-100-100', '100100100')).toBe(true);
    expect(sameJudoId('100100100', '100100101')).toBe(false);
  });
});

describe('Judopay web payments', () => {
  it('POSTs the payment to /webpayments/payments with Basic auth, API-Version and the amount in pounds', async () => {
    const started = await client().createWebPayment(request);
    expect(started.postUrl).toBe(`${judo.url}/v2`);
    expect(started.reference.length).toBeGreaterThan(20);
    const [sent] = judo.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/webpayments/payments');
    expect(sent?.headers.get('authorization')).toBe(
      `Basic ${Buffer.from(`${account.token}:${account.secret}`).toString('base64')}`,
    );
    expect(sent?.headers.get('api-version')).toBe(JUDOPAY_API_VERSION);
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ ...request, amount: 9.9 });
  });

  it('keeps Judopay’s error code 86 when a payment reference is used again, as a permanent refusal', async () => {
    await client().createWebPayment(request);
    const error = await refusal(client().createWebPayment(request));
    expect(error).toMatchObject({ code: 86, retryable: false, httpStatus: 409 });
    expect(error.reason).toContain('already been used');
  });

  it('is refused with wrong credentials, permanently', async () => {
    const error = await refusal(client({ token: account.token, secret: 'wrong-secret' }).createWebPayment(request));
    expect(error).toMatchObject({ retryable: false, httpStatus: 401 });
  });

  it('calls 429 and 5xx retryable, other refusals permanent, with Judopay’s message', async () => {
    judo.failNext(429, { message: 'Too many requests', code: 0 });
    expect(await refusal(client().createWebPayment(request))).toMatchObject({
      retryable: true,
      httpStatus: 429,
      reason: 'Too many requests',
    });
    judo.failNext(503, 'Service Unavailable');
    expect(await refusal(client().getTransaction('1'))).toMatchObject({
      retryable: true,
      reason: 'Service Unavailable',
    });
    judo.failNext(400, { message: 'Sorry, the judoId is not valid', code: 1 });
    expect(await refusal(client().createWebPayment(request))).toMatchObject({
      retryable: false,
      code: 1,
      reason: 'Sorry, the judoId is not valid',
    });
  });

  it('calls a Judopay that cannot be reached retryable', async () => {
    const down = judopayClient({ apiUrl: 'http://127.0.0.1:1', ...account });
    expect(await refusal(down.createWebPayment(request))).toMatchObject({ retryable: true, httpStatus: null });
  });

  it('reads a receipt back with GET /transactions/{receiptId}, amount in pence', async () => {
    await client().createWebPayment(request);
    const paid = judo.pay(request.yourPaymentReference, 'Success');
    const receipt = await client().getTransaction(paid.receiptId);
    expect(receipt).toEqual({
      receiptId: paid.receiptId,
      yourPaymentReference: request.yourPaymentReference,
      type: 'Payment',
      result: 'Success',
      message: 'AuthCode: 123456',
      judoId: '100100100',
      amount: 990,
      currency: 'GBP',
      createdAt: paid.createdAt,
      cardScheme: 'visa',
    });
    expect(judo.requests.at(-1)?.path).toBe(`/transactions/${paid.receiptId}`);
    expect(judo.requests.at(-1)?.method).toBe('GET');
  });

  it("reads the card's scheme from cardScheme, else from the numeric cardType", () => {
    expect(cardSchemeOf({ cardScheme: 'Visa', cardType: 11 })).toBe('visa');
    expect(cardSchemeOf({ cardScheme: 'Mastercard' })).toBe('mastercard');
    expect(cardSchemeOf({ cardScheme: 'Maestro' })).toBe('mastercard');
    expect(cardSchemeOf({ cardScheme: 'American Express' })).toBe('amex');
    expect(cardSchemeOf({ cardType: 8 })).toBe('amex');
    expect(cardSchemeOf({ cardType: 12 })).toBe('mastercard');
    expect(cardSchemeOf({ cardScheme: 'JCB', cardType: 9 })).toBeNull();
    expect(cardSchemeOf(null)).toBeNull();
  });

  it('declines on the hosted page a card of a scheme the account does not take', async () => {
    const noAmex = {
      token: 'tok-no-amex-account',
      secret: 'sec-no-amex-account',
      cards: ['visa', 'mastercard'] as const,
    };
    judo.addAccount(noAmex);
    const own = judopayClient({ apiUrl: judo.url, token: noAmex.token, secret: noAmex.secret });
    const started = await own.createWebPayment({ ...request, yourPaymentReference: 'ml_no_amex_1' });
    const form = new URLSearchParams({ reference: started.reference, result: 'Success', card: 'amex' });
    const res = await fetch(`${judo.url}/v2/pay`, { method: 'POST', body: form, redirect: 'manual' });
    const receiptId = new URL(res.headers.get('location') ?? '', judo.url).searchParams.get('ReceiptId') ?? '';
    expect(await own.getTransaction(receiptId)).toMatchObject({ result: 'Declined', cardScheme: 'amex' });

    const visa = judo.pay('ml_no_amex_1', 'Success', { card: 'mastercard' });
    expect(await own.getTransaction(visa.receiptId)).toMatchObject({ result: 'Success', cardScheme: 'mastercard' });
  });

  it('answers null for a receipt Judopay does not know, or one of another account', async () => {
    expect(await client().getTransaction('123456789')).toBeNull();
    const other = { token: 'tok-other-account', secret: 'sec-other-account' };
    judo.addAccount(other);
    await client(other).createWebPayment(request);
    const theirs = judo.pay(request.yourPaymentReference, 'Success');
    expect(await client().getTransaction(theirs.receiptId)).toBeNull();
  });

  it('reads a webhook’s receipt with its amount as a string', () => {
    expect(
      readReceipt({
        receiptId: 914568453493526528n.toString(),
        yourPaymentReference: 'r',
        result: 'Declined',
        amount: '5.00',
        currency: 'gbp',
        judoId: 100502814,
      }),
    ).toMatchObject({ amount: 500, currency: 'GBP', judoId: '100502814', result: 'Declined' });
    expect(readReceipt({ yourPaymentReference: 'r' })).toBeNull();
    expect(readReceipt('not a receipt')).toBeNull();
  });

  it('serves a hosted page whose Pay button records a receipt and sends the browser back with its id', async () => {
    const started = await client().createWebPayment({ ...request, successUrl: 'https://portal.test/p/paid?x=1' });
    const page = await fetch(`${started.postUrl}?reference=${started.reference}`);
    expect(await page.text()).toContain('Pay £9.90');
    const paid = await fetch(`${judo.url}/v2/pay`, {
      method: 'POST',
      body: new URLSearchParams({ reference: started.reference, result: 'Success' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe('https://portal.test/p/paid');
    expect(back.searchParams.get('Reference')).toBe(started.reference);
    const receipt = await client().getTransaction(back.searchParams.get('ReceiptId') ?? '');
    expect(receipt).toMatchObject({
      result: 'Success',
      amount: 990,
      yourPaymentReference: request.yourPaymentReference,
    });
  });
});
