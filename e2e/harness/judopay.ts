/**
 * The Judopay account of the e2e run: the harness's local Judopay (payments/fake-judopay.ts) accepts
 * these credentials, and a spec saves them as a business's payment settings through the API, as staff
 * would, so card payments go through the real checkout against the local server.
 */
export const e2eJudo = { id: '100200300', token: 'e2e-judo-token-1', secret: 'e2e-judo-secret-1' } as const;

/** The Basic credential of `/hooks/judopay` in the e2e run. */
export const e2eJudoWebhook = { user: 'e2e-judo-webhook', password: 'e2e-judo-webhook-password' } as const;

/** A business's card settings on the e2e account (the local Judopay), listing the cards the page shows. */
export const e2eJudoCards = (cards: { showVisa: boolean; showAmex: boolean; showMastercard: boolean }) =>
  ({
    provider: 'judo',
    judo: { id: e2eJudo.id, sandbox: true, token: e2eJudo.token, secret: e2eJudo.secret, ...cards },
  }) as const;
