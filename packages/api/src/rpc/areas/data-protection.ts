import {
  erasePatient,
  exportPatientData,
  getBusinessRetention,
  getRetentionPolicy,
  updateBusinessRetention,
  updateRetentionPolicy,
} from '../../areas/data-protection/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/dataProtection/*`: the retention policy, erasing a patient, and a patient's data as a ZIP. */
export const dataProtectionRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'dataProtection', {
    getRetentionPolicy,
    updateRetentionPolicy,
    getBusinessRetention,
    updateBusinessRetention,
    erasePatient,
    exportPatientData,
  });
