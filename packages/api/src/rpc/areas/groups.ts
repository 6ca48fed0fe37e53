import { deleteLogo } from '../../areas/businesses/index.ts';
import * as groups from '../../areas/groups/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/**
 * `POST /api/groups/*`. A group's users are listed by `users/getUsersByRole {roleName: 'Group',
 * roleResource: groupId, filterText}` (prefix of email, given, family or full name). A group's logo is
 * deleted as a business's is.
 */
export const groupsRoutes = (deps: AppDeps) => rpcArea(deps, 'groups', { ...groups, deleteLogo });
