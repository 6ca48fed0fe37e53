import {
  getUsageStats,
  listBusinessStats,
  listCollectionStats,
  rebuildMonthlyStats,
  sendMonthlyEmail,
} from '../../areas/reports/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/reports/*`: the reports of a business. */
export const reportsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'reports', {
    listCollectionStats,
    listBusinessStats,
    rebuildMonthlyStats,
    getUsageStats,
    sendMonthlyEmail,
  });
