import { AppError } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { logoNameOf, logoUrlPrefix, removeLogoFile } from './logos.ts';
import { clearLogo, lockLogoUsers } from './repository.ts';

/**
 * `businesses/deleteLogo` and `groups/deleteLogo`: removes a stored logo file and clears it from any
 * business or group showing it, so no page is left with a broken image. Refused (409) while one of
 * those is archived: that would edit an archived entity.
 */
export async function deleteLogo(deps: AppDeps, actor: StaffActor, input: { key: string }): Promise<{ ok: true }> {
  const name = logoNameOf(input.key);
  if (!name) throw new AppError('NOT_FOUND', 'No such logo');
  const path = `${logoUrlPrefix}${name}`;
  await deps.db.transaction().execute(async (trx) => {
    const users = await lockLogoUsers(trx, path);
    const archived = users.find((u) => u.archived);
    if (archived) throw new AppError('CONFLICT', `${archived.name} is archived: its logo cannot be deleted`);
    const now = deps.now();
    for (const u of users) {
      await clearLogo(trx, u.table, u.id, now);
      await audit(trx, deps, actor, {
        action: u.table === 'businesses' ? 'business.logo.update' : 'group.logo.update',
        entityType: u.table === 'businesses' ? 'business' : 'group',
        entityId: u.id,
        businessId: u.table === 'businesses' ? u.id : null,
        details: { changed: ['logo'], path: null },
      });
    }
    // The file goes inside the transaction's span: if it is already gone and nothing used it, 404.
    const removed = await removeLogoFile(deps, name);
    if (!removed && users.length === 0) throw new AppError('NOT_FOUND', 'No such logo');
    await audit(trx, deps, actor, { action: 'logo.delete', entityType: 'logo', entityId: name, details: { path } });
  });
  return { ok: true };
}
