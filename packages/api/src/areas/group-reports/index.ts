export { listMonthlyStats } from './service.ts';
