import { deleteLogo } from '../../areas/businesses/index.ts';
import {
  archiveGroup,
  createGroup,
  getGroup,
  listAccessibleGroups,
  listGroups,
  listGroupsInfo,
  unarchiveGroup,
  updateGroup,
  updateLogo,
  uploadLogo,
} from '../../areas/groups/index.ts';
import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../area.ts';

/**
 * `POST /api/groups/*`. A group's users are listed by `users/getUsersByRole {roleName: 'Group',
 * roleResource: groupId, filterText}` (prefix of email, given, family or full name).
 */
export const groupsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'groups', {
    listGroups,
    listGroupsInfo,
    listAccessibleGroups,
    createGroup,
    updateGroup,
    getGroup,
    archiveGroup,
    unarchiveGroup,
    uploadLogo,
    updateLogo,
    deleteLogo,
  });
