export { listJobs, listQueues, retryJob } from './service.ts';
