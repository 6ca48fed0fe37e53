import * as signUps from '../../areas/sign-ups/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/signUps/*`: patients' online sign-ups, their contact checks and conversion to patients. */
export const signUpsRoutes = (deps: AppDeps) => rpcArea(deps, 'signUps', { ...signUps, delete: signUps.remove });
