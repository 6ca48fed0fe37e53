import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import {
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

/** `POST /api/integration/*`: a business's integration client, its secrets, and the known partners. */
export const integrationRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'integration', {
    getIntegrationClient,
    createOrUpdateIntegrationClient,
    deleteIntegrationClient,
    generateClientSecret,
    generateWebhookSecret,
    listIntegrationPartners,
    createIntegrationPartner,
    updateIntegrationPartner,
    deleteIntegrationPartner,
  });
