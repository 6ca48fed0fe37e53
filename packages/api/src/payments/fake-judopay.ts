import { randomBytes, randomInt } from 'node:crypto';

/*
 * A local Judopay for tests and the e2e harness: a real HTTP server on 127.0.0.1 speaking the part of
 * Judopay's Transaction API the checkout uses (payments/judopay.ts), so the adapter is tested over HTTP
 * rather than against an object in the process.
 * - `POST /webpayments/payments`: Basic auth and `API-Version` (6.0 or later) checked; a reused
 *   yourPaymentReference is refused with Judopay's error code 86; answers `{ reference, postUrl }`;
 * - `GET /transactions/{receiptId}`: the receipt, for the account that made it (404 otherwise);
 * - `GET /v2?reference=…`: a bare hosted payment page (a card to choose; Pay, Decline, Error buttons)
 *   that records a receipt and sends the browser to the success (or cancel) URL with `ReceiptId` and
 *   `Reference`; a card of a scheme the account does not take is declined, as Judopay's account
 *   set-up decides (Web Payments take no per-payment list of schemes);
 * - `pay()` does the same from a test; `sendWebhook()` POSTs a receipt as Judopay's webhooks do
 *   (Basic auth, the receipt's JSON in form field `content`).
 */

/**
 * Credentials the fake accepts. `cards`: the schemes the account takes (Judopay sets these up per
 * account, not per payment); a card of another scheme is declined on the hosted page. Default: all.
 */
export type FakeJudoAccount = { token: string; secret: string; cards?: readonly FakeCard[] };

/** The cards the hosted page offers, each as Judopay's receipt describes it. */
export const fakeCards = {
  visa: { cardLastfour: '3436', endDate: '1229', cardType: 1, cardScheme: 'Visa' },
  mastercard: { cardLastfour: '4444', endDate: '1229', cardType: 2, cardScheme: 'Mastercard' },
  amex: { cardLastfour: '8431', endDate: '1229', cardType: 8, cardScheme: 'Amex' },
} as const;
export type FakeCard = keyof typeof fakeCards;

/** A hosted payment as the fake stored it. */
export type FakeWebPayment = {
  reference: string;
  token: string;
  judoId: string;
  /** As sent: decimal pounds. */
  amount: number;
  currency: string;
  yourConsumerReference: string;
  yourPaymentReference: string;
  successUrl: string | null;
  cancelUrl: string | null;
};

/** A receipt as Judopay returns it (amount in decimal pounds). */
export type FakeReceipt = {
  receiptId: string;
  yourPaymentReference: string;
  type: string;
  createdAt: string;
  result: 'Success' | 'Declined' | 'Error';
  message: string;
  judoId: string | number;
  originalAmount: number;
  amount: number | string;
  netAmount: number;
  currency: string;
  cardDetails: { cardLastfour: string; endDate: string; cardType: number; cardScheme: string } | null;
  consumer: { yourConsumerReference: string };
};

export type FakeJudopay = {
  /** `http://127.0.0.1:<port>`: give it to the app as JUDOPAY_API_URL (and JUDOPAY_LIVE_API_URL). */
  url: string;
  /** Every API request received (not the payment page's), oldest first. */
  requests: { method: string; path: string; headers: Headers; body: string }[];
  payments: Map<string, FakeWebPayment>;
  receipts: Map<string, FakeReceipt & { token: string }>;
  /** Adds credentials the fake accepts. */
  addAccount(account: FakeJudoAccount): void;
  /** The hosted payment whose yourPaymentReference (or Judopay reference) this is. */
  payment(reference: string): FakeWebPayment | undefined;
  /**
   * Pays a hosted payment (by our yourPaymentReference or Judopay's reference) as the patient would on
   * the page, producing a receipt; `overrides` change the receipt (a tampered or odd one), `card` picks
   * the card (Visa unless given; a scheme the account does not take is declined, as on the page).
   */
  pay(
    reference: string,
    result?: FakeReceipt['result'],
    overrides?: Partial<FakeReceipt> & { token?: string; card?: FakeCard },
  ): FakeReceipt;
  /** Answers the next API request with this instead (a 429, a 500, a refusal). */
  failNext(status: number, body: unknown): void;
  /** POSTs a receipt to `url` as Judopay's webhook does; answers the receiver's status and body. */
  sendWebhook(
    url: string,
    receipt: FakeReceipt | string,
    auth: { user: string; password: string } | null,
  ): Promise<{ status: number; body: string }>;
  reset(): void;
  stop(): void;
};

const json = (status: number, body: unknown) => Response.json(body, { status });

const problem = (status: number, code: number, message: string, category = 2) =>
  json(status, { message, code, category });

const messages: Record<FakeReceipt['result'], string> = {
  Success: 'AuthCode: 123456',
  Declined: 'Card declined',
  Error: 'Gateway error: the card issuer did not answer',
};

export function startFakeJudopay(accounts: FakeJudoAccount[] = []): FakeJudopay {
  const secrets = new Map(accounts.map((a) => [a.token, a.secret]));
  const cardsOf = new Map(accounts.map((a) => [a.token, a.cards]));
  const requests: FakeJudopay['requests'] = [];
  const payments = new Map<string, FakeWebPayment>();
  const byOurReference = new Map<string, string>();
  const receipts = new Map<string, FakeReceipt & { token: string }>();
  const failures: { status: number; body: unknown }[] = [];

  /** The account a request's Basic credentials name, or null. */
  const accountOf = (req: Request): string | null => {
    const header = req.headers.get('authorization') ?? '';
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return null;
    const [token, ...rest] = Buffer.from(match[1], 'base64').toString('utf8').split(':');
    return token !== undefined && secrets.has(token) && secrets.get(token) === rest.join(':') ? token : null;
  };

  const paymentOf = (reference: string) => payments.get(byOurReference.get(reference) ?? reference);

  function pay(
    reference: string,
    result: FakeReceipt['result'] = 'Success',
    overrides: Partial<FakeReceipt> & { token?: string; card?: FakeCard } = {},
  ) {
    const payment = paymentOf(reference);
    if (!payment) throw new Error(`fake Judopay: no hosted payment ${reference}`);
    const { token, card = 'visa', ...fields } = overrides;
    const taken = cardsOf.get(payment.token);
    // The account does not take this scheme: Judopay declines the card.
    const refused = result === 'Success' && taken !== undefined && !taken.includes(card);
    const outcome: FakeReceipt['result'] = refused ? 'Declined' : result;
    const receipt: FakeReceipt & { token: string } = {
      receiptId: String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000_000, 999_999_999)),
      yourPaymentReference: payment.yourPaymentReference,
      type: 'Payment',
      createdAt: new Date().toISOString(),
      result: outcome,
      message: refused ? 'Card type not accepted' : messages[outcome],
      judoId: /^\d+$/.test(payment.judoId) ? Number(payment.judoId) : payment.judoId,
      originalAmount: payment.amount,
      amount: payment.amount,
      netAmount: payment.amount,
      currency: payment.currency,
      cardDetails: { ...fakeCards[card] },
      consumer: { yourConsumerReference: payment.yourConsumerReference },
      ...fields,
      token: token ?? payment.token,
    };
    receipts.set(receipt.receiptId, receipt);
    const { token: _token, ...visible } = receipt;
    return visible;
  }

  const page = (payment: FakeWebPayment) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Judopay (local)</title></head><body>
<main><h1>Pay £${payment.amount.toFixed(2)}</h1>
<form method="post" action="/v2/pay">
<input type="hidden" name="reference" value="${payment.reference}">
<label>Card <select name="card">
<option value="visa">Visa</option><option value="mastercard">Mastercard</option><option value="amex">American Express</option>
</select></label>
<button name="result" value="Success">Pay</button>
<button name="result" value="Declined">Decline</button>
<button name="result" value="Error">Error</button>
<button name="result" value="Cancel">Cancel</button>
</form></main></body></html>`;

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      // The hosted payment page: what the patient's browser sees, no API credentials.
      if (url.pathname === '/v2' && req.method === 'GET') {
        const payment = payments.get(url.searchParams.get('reference') ?? '');
        return payment
          ? new Response(page(payment), { headers: { 'content-type': 'text/html; charset=utf-8' } })
          : new Response('Unknown payment', { status: 404 });
      }
      if (url.pathname === '/v2/pay' && req.method === 'POST') {
        const form = await req.formData();
        const payment = payments.get(String(form.get('reference') ?? ''));
        if (!payment) return new Response('Unknown payment', { status: 404 });
        const choice = String(form.get('result') ?? '');
        if (choice === 'Cancel' || !(choice in messages)) {
          return Response.redirect(payment.cancelUrl ?? payment.successUrl ?? '/', 303);
        }
        const card = String(form.get('card') ?? 'visa');
        const receipt = pay(payment.reference, choice as FakeReceipt['result'], {
          card: card in fakeCards ? (card as FakeCard) : 'visa',
        });
        const back = new URL(payment.successUrl ?? `${url.origin}/v2/done`);
        back.searchParams.set('ReceiptId', receipt.receiptId);
        back.searchParams.set('Reference', payment.reference);
        return Response.redirect(back.toString(), 303);
      }

      const body = await req.text();
      requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body });
      const failure = failures.shift();
      if (failure) return json(failure.status, failure.body);
      const token = accountOf(req);
      if (!token) return problem(401, 7, 'Authorization has been denied for this request', 1);
      const version = Number.parseFloat(req.headers.get('api-version') ?? '');
      if (!(version >= 6)) return problem(400, 12, 'API-Version header missing or older than 6.0', 1);

      if (url.pathname === '/webpayments/payments' && req.method === 'POST') {
        if (!/^application\/json/i.test(req.headers.get('content-type') ?? '')) {
          return problem(415, 1, 'Content-Type must be application/json');
        }
        let input: Record<string, unknown>;
        try {
          input = JSON.parse(body) as Record<string, unknown>;
        } catch {
          return problem(400, 1, 'Sorry, the request body is not valid JSON');
        }
        const text = (k: string) =>
          typeof input[k] === 'string' || typeof input[k] === 'number' ? String(input[k]) : '';
        const missing = ['judoId', 'currency', 'yourConsumerReference', 'yourPaymentReference'].filter((k) => !text(k));
        if (missing.length > 0) return problem(400, 1, `Sorry, these fields are missing: ${missing.join(', ')}`);
        if (typeof input.amount !== 'number' || !(input.amount > 0)) {
          return problem(400, 1, 'Sorry, the amount must be a number greater than 0');
        }
        const yourPaymentReference = text('yourPaymentReference');
        if (byOurReference.has(yourPaymentReference)) {
          return problem(409, 86, 'Sorry, but the payment reference you have supplied has already been used', 4);
        }
        const reference = randomBytes(36).toString('base64url');
        const payment: FakeWebPayment = {
          reference,
          token,
          judoId: text('judoId'),
          amount: input.amount,
          currency: text('currency'),
          yourConsumerReference: text('yourConsumerReference'),
          yourPaymentReference,
          successUrl: text('successUrl') || null,
          cancelUrl: text('cancelUrl') || null,
        };
        payments.set(reference, payment);
        byOurReference.set(yourPaymentReference, reference);
        return json(200, { postUrl: `${url.origin}/v2`, reference });
      }

      const transaction = /^\/transactions\/([^/]+)$/.exec(url.pathname);
      if (transaction && req.method === 'GET') {
        const receipt = receipts.get(decodeURIComponent(transaction[1] ?? ''));
        if (!receipt || receipt.token !== token) return problem(404, 19, 'Sorry, we could not find that receipt', 3);
        const { token: _token, ...visible } = receipt;
        return json(200, visible);
      }
      return problem(404, 0, 'No such resource');
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    payments,
    receipts,
    addAccount: (account) => {
      secrets.set(account.token, account.secret);
      cardsOf.set(account.token, account.cards);
    },
    payment: paymentOf,
    pay,
    failNext: (status, body) => failures.push({ status, body }),
    async sendWebhook(url, receipt, auth) {
      const content = typeof receipt === 'string' ? receipt : JSON.stringify(receipt);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(auth
            ? { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` }
            : {}),
        },
        body: new URLSearchParams({ content }).toString(),
      });
      return { status: res.status, body: await res.text() };
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
      payments.clear();
      byOurReference.clear();
      receipts.clear();
    },
    stop: () => server.stop(true),
  };
}
