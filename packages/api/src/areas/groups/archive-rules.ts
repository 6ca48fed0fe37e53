import { AppError } from '@medlocker/core';
import type { Db } from '../businesses/index.ts';
import { findGroup } from './repository.ts';

/**
 * SPEC §4: an archived group cannot have businesses linked or users added. Throws 404 for no such
 * group and 409 for an archived one. The auth area calls this before adding a Group role, so the
 * rule holds whichever client adds the user.
 */
export async function assertGroupAcceptsMembers(db: Db, groupId: string, what: 'businesses' | 'users'): Promise<void> {
  const group = await findGroup(db, groupId);
  if (!group) throw new AppError('NOT_FOUND', `No group with id ${groupId}`);
  if (group.archived !== null) {
    throw new AppError(
      'CONFLICT',
      `The group ${group.name} is archived: ${what} cannot be added to it until it is unarchived`,
    );
  }
}
