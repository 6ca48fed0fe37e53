import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import {
  createOrUpdateGlobalSettings,
  getAlarmMessageTemplates,
  getGlobalSettings,
  updateAlarmMessageTemplates,
} from './service.ts';

/** `POST /api/globalSettings/*`: the NHS prescription charge and the alarm message templates. */
export const globalSettingsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'globalSettings', {
    getGlobalSettings,
    createOrUpdateGlobalSettings,
    getAlarmMessageTemplates,
    updateAlarmMessageTemplates,
  });
