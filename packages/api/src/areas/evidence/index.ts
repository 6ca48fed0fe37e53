export { downloadEvidencePack, getEvidencePack, holdPins, releasePins } from './service.ts';
