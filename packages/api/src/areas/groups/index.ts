export { assertGroupAcceptsMembers } from './archive-rules.ts';
export { findGroup } from './repository.ts';
export {
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
} from './service.ts';
