import {
  createOrUpdateGlobalSettings,
  getAlarmMessageTemplates,
  getGlobalSettings,
  updateAlarmMessageTemplates,
} from '../../areas/global-settings/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/globalSettings/*`: the NHS prescription charge and the alarm message templates. */
export const globalSettingsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'globalSettings', {
    getGlobalSettings,
    createOrUpdateGlobalSettings,
    getAlarmMessageTemplates,
    updateAlarmMessageTemplates,
  });
