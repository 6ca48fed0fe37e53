export {
  MONTHLY_EMAIL_JOB,
  MONTHLY_EMAILS_JOB,
  queueMonthlyEmails,
  sendMonthlyEmail,
  sendScheduledMonthlyEmail,
} from './monthly-email.ts';
export { monthError, runMonthlyStats } from './monthly-job-repository.ts';
export { emptyMonth, fromMonthIndex, monthIndex, monthlyRows } from './monthly-repository.ts';
export type { Db } from './repository.ts';
export { listBusinessStats, listCollectionStats, rebuildMonthlyStats } from './service.ts';
export { getUsageStats } from './usage.ts';
