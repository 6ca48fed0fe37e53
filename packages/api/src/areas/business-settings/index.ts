export { changedPaths } from './changes.ts';
export { findBusiness, readSmsTemplates } from './repository.ts';
export {
  effectiveFeatureSettings,
  getBusinessControlledSettings,
  getBusinessFeatureSettings,
  getBusinessSmsTemplates,
  inEditableBusiness,
  requireBusiness,
  requireEditableBusiness,
  updateBusinessControlledSettings,
  updateBusinessFeatureSettings,
  updateBusinessSmsTemplates,
} from './service.ts';
