import * as integrationClients from '../../areas/integration-clients/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/integration/*`: a business's integration client, its secrets, and the known partners. */
export const integrationRoutes = (deps: AppDeps) => rpcArea(deps, 'integration', integrationClients);
