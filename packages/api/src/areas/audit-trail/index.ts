export { exportCsv, search } from './service.ts';
