import { Elysia } from 'elysia';
import { pingDatabase } from '../../areas/health/index.ts';
import { buildInfo } from '../../config/build-info.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/**
 * `/healthz`: the process answers. `/readyz`: and its database does too, and it is not stopping.
 * `/version`: the version and commit running.
 */
export function healthRoutes(deps: AppDeps) {
  return (
    new Elysia({ name: 'health' })
      .get('/healthz', () => ({ ok: true }))
      // Which version and commit answer, for whoever deploys or debugs.
      .get('/version', () => buildInfo)
      .get('/readyz', async ({ set }) => {
        if (deps.lifecycle?.draining) {
          // Stopping: the balancer stops sending new requests here while those in flight finish.
          set.status = 503;
          return { ok: false, draining: true, database: deps.dbKind };
        }
        try {
          await pingDatabase(deps.db);
          return { ok: true, database: deps.dbKind };
        } catch (error) {
          deps.logger.warn('readiness check failed', { error: error instanceof Error ? error.message : String(error) });
          set.status = 503;
          return { ok: false, database: deps.dbKind };
        }
      })
      .use(
        rpcArea(deps, 'health', {
          ping: (_deps, _actor, input) => ({
            ok: true as const,
            time: deps.now(),
            ...(input.echo ? { echo: input.echo } : {}),
          }),
        }),
      )
  );
}
