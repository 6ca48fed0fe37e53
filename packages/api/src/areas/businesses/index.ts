export { changedFields } from './changes.ts';
export { deleteLogo } from './logo-delete.ts';
export { readLogo, storeLogo } from './logos.ts';
export { archivedOf, type Db } from './repository.ts';
export {
  archiveBusiness,
  assertLogoPath,
  createBusiness,
  getBusiness,
  getBusinessInfo,
  linkGroup,
  listAccessibleBusinesses,
  listBusinesses,
  listBusinessesInfo,
  listGroupedBusinesses,
  listUngroupedBusinesses,
  unarchiveBusiness,
  unlinkGroup,
  updateBusiness,
  updateLogo,
  uploadLogo,
} from './service.ts';
