import { randomInt } from 'node:crypto';

/* What the local Judopay (payments/fake-judopay.ts) keeps: its accounts, hosted payments and receipts. */

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

/** A stored receipt with the account that made it (never shown). */
export type StoredReceipt = FakeReceipt & { token: string };

export const resultMessages: Record<FakeReceipt['result'], string> = {
  Success: 'AuthCode: 123456',
  Declined: 'Card declined',
  Error: 'Gateway error: the card issuer did not answer',
};

/** Everything the fake holds between requests. */
export class FakeJudoState {
  readonly secrets = new Map<string, string>();
  readonly cardsOf = new Map<string, readonly FakeCard[] | undefined>();
  readonly requests: { method: string; path: string; headers: Headers; body: string }[] = [];
  readonly payments = new Map<string, FakeWebPayment>();
  readonly byOurReference = new Map<string, string>();
  readonly receipts = new Map<string, StoredReceipt>();
  readonly failures: { status: number; body: unknown }[] = [];

  constructor(accounts: FakeJudoAccount[]) {
    for (const account of accounts) this.addAccount(account);
  }

  addAccount(account: FakeJudoAccount) {
    this.secrets.set(account.token, account.secret);
    this.cardsOf.set(account.token, account.cards);
  }

  /** The account a request's Basic credentials name, or null. */
  accountOf(req: Request): string | null {
    const header = req.headers.get('authorization') ?? '';
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return null;
    const [token, ...rest] = Buffer.from(match[1], 'base64').toString('utf8').split(':');
    return token !== undefined && this.secrets.has(token) && this.secrets.get(token) === rest.join(':') ? token : null;
  }

  /** The hosted payment whose yourPaymentReference (or Judopay reference) this is. */
  paymentOf(reference: string) {
    return this.payments.get(this.byOurReference.get(reference) ?? reference);
  }

  /** Pays a hosted payment as the patient would on the page (FakeJudopay's `pay`). */
  pay(
    reference: string,
    result: FakeReceipt['result'] = 'Success',
    overrides: Partial<FakeReceipt> & { token?: string; card?: FakeCard } = {},
  ): FakeReceipt {
    const payment = this.paymentOf(reference);
    if (!payment) throw new Error(`fake Judopay: no hosted payment ${reference}`);
    const { token, card = 'visa', ...fields } = overrides;
    const taken = this.cardsOf.get(payment.token);
    // The account does not take this scheme: Judopay declines the card.
    const refused = result === 'Success' && taken !== undefined && !taken.includes(card);
    const outcome: FakeReceipt['result'] = refused ? 'Declined' : result;
    const receipt: StoredReceipt = {
      receiptId: String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000_000, 999_999_999)),
      yourPaymentReference: payment.yourPaymentReference,
      type: 'Payment',
      createdAt: new Date().toISOString(),
      result: outcome,
      message: refused ? 'Card type not accepted' : resultMessages[outcome],
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
    this.receipts.set(receipt.receiptId, receipt);
    const { token: _token, ...visible } = receipt;
    return visible;
  }

  reset() {
    this.requests.length = 0;
    this.failures.length = 0;
    this.payments.clear();
    this.byOurReference.clear();
    this.receipts.clear();
  }
}
