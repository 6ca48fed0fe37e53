export { erasePatient } from './erase.ts';
export { exportPatientData } from './export.ts';
export { getBusinessRetention, getRetentionPolicy, updateBusinessRetention, updateRetentionPolicy } from './policy.ts';
export { applyRetention, RETENTION_JOB } from './retention-job.ts';
