export { deleteLogo } from './logo-delete.ts';
export { readLogo } from './logos.ts';
export * from './organisation-repository.ts';
export {
  createOrganisation,
  filterOf,
  listMethod,
  type OrganisationKind,
  organisationMethods,
  reachOf,
  updateOrganisation,
} from './organisations.ts';
export {
  archiveBusiness,
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
