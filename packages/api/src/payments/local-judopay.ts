import { type FakeJudopay, startFakeJudopay } from './fake-judopay.ts';

/**
 * The account of the local Judopay (`npm start` outside production, JUDOPAY_LOCAL): the demo's
 * businesses that take payments are seeded with it; staff may save it for any other business too. It
 * is accepted by the local Judopay alone, which charges nothing.
 */
export const localJudoAccount = { id: '100100100', token: 'local-judo-token', secret: 'local-judo-secret' } as const;

/**
 * Starts the local Judopay (payments/fake-judopay.ts: its Transaction API and a bare hosted payment page
 * where a test card is chosen and Pay, Decline or Error pressed) on a free port of 127.0.0.1, taking
 * {@link localJudoAccount}. The server serves sandbox businesses from it (server.ts); never in
 * production, whose configuration refuses JUDOPAY_LOCAL.
 */
export function startLocalJudopay(): FakeJudopay {
  return startFakeJudopay([{ token: localJudoAccount.token, secret: localJudoAccount.secret }]);
}
