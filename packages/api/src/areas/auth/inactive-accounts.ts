import { audit } from '../../audit/audit.ts';
import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { revokeOtherSessions } from '../../sessions/sessions.ts';
import {
  disableAccounts,
  enabledSupportCount,
  inactiveAccountDays,
  type StaleAccount,
  staleAccounts,
} from './account-repository.ts';

const day = 24 * 60 * 60 * 1000;
const batch = 200;

/**
 * The scheduled job `accounts.disableInactive`: disables every enabled account whose last sign-in (or
 * creation, or last enabling, the latest) is older than the global setting's days, ends its sessions and
 * writes a `user.disable` audit entry each. The last enabled Support account is never disabled: with
 * none left, nobody could enable anyone again (docs/decisions/auth.md). Answers how many it disabled.
 */
export async function disableInactiveAccounts(deps: AppDeps): Promise<number> {
  const actor = systemActor('accounts.disableInactive');
  const now = deps.now();
  const days = await inactiveAccountDays(deps.db);
  const before = now - days * day;
  let disabled = 0;
  for (;;) {
    const ids = await deps.db.transaction().execute(async (trx) => {
      const stale = await staleAccounts(trx, before, batch);
      const chosen = await sparingLastSupport(trx, stale);
      const done = await disableAccounts(
        trx,
        chosen.map((a) => a.id),
        before,
        now,
      );
      for (const id of done) {
        await revokeOtherSessions(trx, id, null, now);
        const account = stale.find((a) => a.id === id);
        await audit(trx, deps, actor, {
          action: 'user.disable',
          entityType: 'user',
          entityId: id,
          details: { reason: 'inactive', days, lastActive: account?.lastActive ?? null },
        });
      }
      return { done, more: stale.length === batch && chosen.length === stale.length };
    });
    for (const id of ids.done) liveOf(deps).accessChanged(id);
    disabled += ids.done.length;
    if (!ids.more || ids.done.length === 0) return disabled;
  }
}

/**
 * The stale accounts less the most recently active Support account among them, when disabling them all
 * would leave no enabled Support account.
 */
async function sparingLastSupport(db: Parameters<typeof enabledSupportCount>[0], stale: StaleAccount[]) {
  const support = stale.filter((a) => a.support);
  if (support.length === 0) return stale;
  if (
    (await enabledSupportCount(
      db,
      support.map((a) => a.id),
    )) > 0
  )
    return stale;
  const spared = support.reduce((a, b) => (b.lastActive > a.lastActive ? b : a));
  return stale.filter((a) => a.id !== spared.id);
}
