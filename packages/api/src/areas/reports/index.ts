import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { sendMonthlyEmail } from './monthly-email.ts';
import { listBusinessStats, listCollectionStats, rebuildMonthlyStats } from './service.ts';
import { getUsageStats } from './usage.ts';

/** `POST /api/reports/*`: the reports of a business (issue 21). */
export const reportsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'reports', {
    listCollectionStats,
    listBusinessStats,
    rebuildMonthlyStats,
    getUsageStats,
    sendMonthlyEmail,
  });
