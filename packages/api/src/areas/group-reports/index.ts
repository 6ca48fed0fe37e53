import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { listMonthlyStats } from './service.ts';

/** `POST /api/groupReports/*`: a group's businesses compared month by month (issue 21). */
export const groupReportsRoutes = (deps: AppDeps) => rpcArea(deps, 'groupReports', { listMonthlyStats });
