import { downloadEvidencePack, getEvidencePack, holdPins, releasePins } from '../../areas/evidence/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/evidence/*`: a machine's evidence pack, and holding and releasing PINs. */
export const evidenceRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'evidence', { getEvidencePack, downloadEvidencePack, holdPins, releasePins });
