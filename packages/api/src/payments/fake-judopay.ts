import { apiRequest, hostedPage, hostedPay } from './fake-judopay-endpoints.ts';
import {
  type FakeCard,
  type FakeJudoAccount,
  FakeJudoState,
  type FakeReceipt,
  type FakeWebPayment,
} from './fake-judopay-records.ts';

export {
  type FakeCard,
  type FakeJudoAccount,
  type FakeReceipt,
  type FakeWebPayment,
  fakeCards,
} from './fake-judopay-records.ts';

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

export function startFakeJudopay(accounts: FakeJudoAccount[] = []): FakeJudopay {
  const state = new FakeJudoState(accounts);
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === '/v2' && req.method === 'GET') return hostedPage(state, url);
      if (url.pathname === '/v2/pay' && req.method === 'POST') return hostedPay(state, req, url);
      return apiRequest(state, req, url);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests: state.requests,
    payments: state.payments,
    receipts: state.receipts,
    addAccount: (account) => state.addAccount(account),
    payment: (reference) => state.paymentOf(reference),
    pay: (reference, result, overrides) => state.pay(reference, result, overrides),
    failNext: (status, body) => state.failures.push({ status, body }),
    sendWebhook,
    reset: () => state.reset(),
    stop: () => server.stop(true),
  };
}

/** POSTs a receipt to `url` as Judopay's webhook does (Basic auth, the receipt's JSON in form field `content`). */
async function sendWebhook(
  url: string,
  receipt: FakeReceipt | string,
  auth: { user: string; password: string } | null,
): Promise<{ status: number; body: string }> {
  const content = typeof receipt === 'string' ? receipt : JSON.stringify(receipt);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(auth ? { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` } : {}),
    },
    body: new URLSearchParams({ content }).toString(),
  });
  return { status: res.status, body: await res.text() };
}
