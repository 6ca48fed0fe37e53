export { deleteLogo } from './logo-delete.ts';
export { readLogo } from './logos.ts';
export * from './organisation-repository.ts';
export {
  createOrganisation,
  filterOf,
  type OrganisationKind,
  organisationMethods,
  pageByName,
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
