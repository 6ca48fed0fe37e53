export { effectiveFeatureSettings } from './service.ts';
