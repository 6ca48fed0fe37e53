import { randomBytes } from 'node:crypto';
import {
  type FakeCard,
  type FakeJudoState,
  type FakeReceipt,
  type FakeWebPayment,
  fakeCards,
  resultMessages,
} from './fake-judopay-records.ts';

/* The local Judopay's endpoints (payments/fake-judopay.ts), one handler each. */

const json = (status: number, body: unknown) => Response.json(body, { status });

const problem = (status: number, code: number, message: string, category = 2) =>
  json(status, { message, code, category });

const page = (
  payment: FakeWebPayment,
) => `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Judopay (local)</title></head><body>
<main><h1>Pay £${payment.amount.toFixed(2)}</h1>
<p>A local Judopay for development and tests: no card is charged. Choose a test card, then Pay (or Decline, Error, Cancel).</p>
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

/** `GET /v2?reference=…`: the hosted payment page, what the patient's browser sees (no API credentials). */
export function hostedPage(state: FakeJudoState, url: URL): Response {
  const payment = state.payments.get(url.searchParams.get('reference') ?? '');
  return payment
    ? new Response(page(payment), { headers: { 'content-type': 'text/html; charset=utf-8' } })
    : new Response('Unknown payment', { status: 404 });
}

/** `POST /v2/pay`: the page's buttons; records a receipt and sends the browser back with it. */
export async function hostedPay(state: FakeJudoState, req: Request, url: URL): Promise<Response> {
  const form = await req.formData();
  const payment = state.payments.get(String(form.get('reference') ?? ''));
  if (!payment) return new Response('Unknown payment', { status: 404 });
  const choice = String(form.get('result') ?? '');
  if (choice === 'Cancel' || !(choice in resultMessages)) {
    return Response.redirect(payment.cancelUrl ?? payment.successUrl ?? '/', 303);
  }
  const card = String(form.get('card') ?? 'visa');
  const receipt = state.pay(payment.reference, choice as FakeReceipt['result'], {
    card: card in fakeCards ? (card as FakeCard) : 'visa',
  });
  const back = new URL(payment.successUrl ?? `${url.origin}/v2/done`);
  back.searchParams.set('ReceiptId', receipt.receiptId);
  back.searchParams.set('Reference', payment.reference);
  return Response.redirect(back.toString(), 303);
}

/**
 * An API request: recorded, answered with a queued failure if any, its Basic credentials and API-Version
 * checked, then the endpoint's handler.
 */
export async function apiRequest(state: FakeJudoState, req: Request, url: URL): Promise<Response> {
  const body = await req.text();
  state.requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body });
  const failure = state.failures.shift();
  if (failure) return json(failure.status, failure.body);
  const token = state.accountOf(req);
  if (!token) return problem(401, 7, 'Authorization has been denied for this request', 1);
  const version = Number.parseFloat(req.headers.get('api-version') ?? '');
  if (!(version >= 6)) return problem(400, 12, 'API-Version header missing or older than 6.0', 1);
  if (url.pathname === '/webpayments/payments' && req.method === 'POST') {
    return createWebPayment(state, req, url, token, body);
  }
  const transaction = /^\/transactions\/([^/]+)$/.exec(url.pathname);
  if (transaction && req.method === 'GET') return getTransaction(state, transaction[1] ?? '', token);
  return problem(404, 0, 'No such resource');
}

/** `POST /webpayments/payments`: a hosted payment; a reused yourPaymentReference is Judopay's error 86. */
function createWebPayment(state: FakeJudoState, req: Request, url: URL, token: string, body: string): Response {
  if (!/^application\/json/i.test(req.headers.get('content-type') ?? '')) {
    return problem(415, 1, 'Content-Type must be application/json');
  }
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return problem(400, 1, 'Sorry, the request body is not valid JSON');
  }
  const text = (k: string) => (typeof input[k] === 'string' || typeof input[k] === 'number' ? String(input[k]) : '');
  const missing = ['judoId', 'currency', 'yourConsumerReference', 'yourPaymentReference'].filter((k) => !text(k));
  if (missing.length > 0) return problem(400, 1, `Sorry, these fields are missing: ${missing.join(', ')}`);
  if (typeof input.amount !== 'number' || !(input.amount > 0)) {
    return problem(400, 1, 'Sorry, the amount must be a number greater than 0');
  }
  const yourPaymentReference = text('yourPaymentReference');
  if (state.byOurReference.has(yourPaymentReference)) {
    return problem(409, 86, 'Sorry, but the payment reference you have supplied has already been used', 4);
  }
  const reference = randomBytes(36).toString('base64url');
  state.payments.set(reference, {
    reference,
    token,
    judoId: text('judoId'),
    amount: input.amount,
    currency: text('currency'),
    yourConsumerReference: text('yourConsumerReference'),
    yourPaymentReference,
    successUrl: text('successUrl') || null,
    cancelUrl: text('cancelUrl') || null,
  });
  state.byOurReference.set(yourPaymentReference, reference);
  return json(200, { postUrl: `${url.origin}/v2`, reference });
}

/** `GET /transactions/{receiptId}`: the receipt, for the account that made it (404 otherwise). */
function getTransaction(state: FakeJudoState, receiptId: string, token: string): Response {
  const receipt = state.receipts.get(decodeURIComponent(receiptId));
  if (!receipt || receipt.token !== token) return problem(404, 19, 'Sorry, we could not find that receipt', 3);
  const { token: _token, ...visible } = receipt;
  return json(200, visible);
}
