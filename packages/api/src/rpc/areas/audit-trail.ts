import { exportCsv, search } from '../../areas/audit-trail/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/audit/*`: the audit trail, for support and pharmacy Admins. */
export const auditRoutes = (deps: AppDeps) => rpcArea(deps, 'audit', { search, export: exportCsv });
