import { sendMonthlyEmail } from '../../areas/reports/monthly-email.ts';
import { listBusinessStats, listCollectionStats, rebuildMonthlyStats } from '../../areas/reports/service.ts';
import { getUsageStats } from '../../areas/reports/usage.ts';
import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/reports/*`: the reports of a business (issue 21). */
export const reportsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'reports', {
    listCollectionStats,
    listBusinessStats,
    rebuildMonthlyStats,
    getUsageStats,
    sendMonthlyEmail,
  });
