import { acknowledgeAlarm, listAlarms, resolveAlarm } from '../../areas/machines/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/alarms/*`: critical alarms, held and resolved by staff (docs/decisions/machines.md). */
export const alarmsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'alarms', { list: listAlarms, acknowledge: acknowledgeAlarm, resolve: resolveAlarm });
