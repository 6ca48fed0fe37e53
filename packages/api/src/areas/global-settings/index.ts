export {
  createOrUpdateGlobalSettings,
  getAlarmMessageTemplates,
  getGlobalSettings,
  updateAlarmMessageTemplates,
} from './service.ts';
