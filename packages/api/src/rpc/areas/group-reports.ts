import { listMonthlyStats } from '../../areas/group-reports/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/groupReports/*`: a group's businesses compared month by month. */
export const groupReportsRoutes = (deps: AppDeps) => rpcArea(deps, 'groupReports', { listMonthlyStats });
