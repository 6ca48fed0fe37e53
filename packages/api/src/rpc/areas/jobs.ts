import { listJobs, listQueues, retryJob } from '../../areas/jobs/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/jobs/*`: the background job queues, for support staff. */
export const jobsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'jobs', { listQueues: (d) => listQueues(d), listJobs, retryJob });
