import {
  getBusinessControlledSettings,
  getBusinessFeatureSettings,
  getBusinessSmsTemplates,
  updateBusinessControlledSettings,
  updateBusinessFeatureSettings,
  updateBusinessSmsTemplates,
} from '../../areas/business-settings/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/businessSettings/*`: a business's SMS templates, feature and controlled settings. */
export const businessSettingsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'businessSettings', {
    getBusinessSmsTemplates,
    updateBusinessSmsTemplates,
    getBusinessFeatureSettings,
    updateBusinessFeatureSettings,
    getBusinessControlledSettings,
    updateBusinessControlledSettings,
  });
