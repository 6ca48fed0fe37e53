import type { AppDeps } from '../../context/deps.ts';
import { localJudoAccount } from '../../payments/local-judopay.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { businessesTakingPaymentsWithoutSettings, upsertPaymentSettings } from './repository.ts';
import { sealed } from './service.ts';

/**
 * The demo's card payments on a development machine: each business taking payments (a live machine
 * with payments on) and without payment settings is given the local Judopay's account, in sandbox,
 * with every card shown. Called once, by the demo seed, when the local Judopay runs (seed-demo.ts);
 * never in production. Answers the businesses' names.
 */
export async function useLocalJudopayForDemo(deps: Pick<AppDeps, 'db' | 'config' | 'now'>): Promise<string[]> {
  if (deps.config.production || !deps.config.judopay.local) return [];
  const box = createSecretBox(deps.config.secretsKey);
  return deps.db.transaction().execute(async (tx) => {
    const businesses = await businessesTakingPaymentsWithoutSettings(tx);
    for (const business of businesses) {
      const settings = sealed(
        {
          businessId: business.id,
          // Ofcom's numbers for drama: no one answers them.
          contactNumber: '0121 496 0000',
          legalInfo: `${business.name} Ltd (demo)`,
          provider: 'judo',
          judo: {
            ...localJudoAccount,
            sandbox: true,
            showVisa: true,
            showAmex: true,
            showMastercard: true,
          },
        },
        box,
      );
      await upsertPaymentSettings(tx, settings, deps.now());
    }
    return businesses.map((b) => b.name);
  });
}
