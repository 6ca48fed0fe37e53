import { batchGet, batchUpsertPatients, create, get, list, remove, update } from '../../areas/patients/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/patients/*`: patients of a business, and the CSV import's batch upsert. */
export const patientsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'patients', { create, update, get, delete: remove, list, batchGet, batchUpsertPatients });
