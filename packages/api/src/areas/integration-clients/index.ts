export { findClientOfBusiness } from './repository.ts';
export {
  createIntegrationPartner,
  createOrUpdateIntegrationClient,
  deleteIntegrationClient,
  deleteIntegrationPartner,
  generateClientSecret,
  generateWebhookSecret,
  getIntegrationClient,
  listIntegrationPartners,
  updateIntegrationPartner,
} from './service.ts';
