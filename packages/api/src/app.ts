import { AppError } from '@medlocker/core';
import { Elysia } from 'elysia';
import { judopayWebhookRoutes } from './callbacks/judopay.ts';
import { messagingReportRoutes } from './callbacks/message-reports.ts';
import { nhsLoginRoutes } from './callbacks/nhs-login.ts';
import { ssoRoutes } from './callbacks/sso.ts';
import type { AppDeps } from './context/deps.ts';
import { docsRoutes } from './docs/docs-page.ts';
import { consoleStatic } from './http/console-static.ts';
import { toErrorResponse } from './http/errors.ts';
import { metricsRoutes } from './http/metrics-routes.ts';
import { patientStatic } from './http/patient-static.ts';
import { requestMeta } from './http/request-meta.ts';
import { assertSameOrigin, HSTS, securityHeaders } from './http/security.ts';
import { consoleHub } from './hubs/console/index.ts';
import { defaultMachineHubOptions, type MachineHubOptions, machineHub } from './hubs/machine/index.ts';
import { integrationApiRoutes } from './integration-api/index.ts';
import { isIntegrationPath, PROBLEM_TYPE, problemOf } from './integration-api/problem.ts';
import { enterRequestScope, withRequestScope } from './log/request-scope.ts';
import { metricsOf } from './metrics/metrics.ts';
import { alarmsRoutes } from './rpc/areas/alarms.ts';
import { auditRoutes } from './rpc/areas/audit-trail.ts';
import { authRoutes } from './rpc/areas/auth.ts';
import { bagsRoutes } from './rpc/areas/bags.ts';
import { businessSettingsRoutes } from './rpc/areas/business-settings.ts';
import { businessesRoutes } from './rpc/areas/businesses.ts';
import { checkoutRoutes } from './rpc/areas/checkout.ts';
import { dataProtectionRoutes } from './rpc/areas/data-protection.ts';
import { deviceAuthRoutes } from './rpc/areas/device-auth.ts';
import { evidenceRoutes } from './rpc/areas/evidence.ts';
import { globalSettingsRoutes } from './rpc/areas/global-settings.ts';
import { groupReportsRoutes } from './rpc/areas/group-reports.ts';
import { groupsRoutes } from './rpc/areas/groups.ts';
import { healthRoutes } from './rpc/areas/health.ts';
import { identityProvidersRoutes } from './rpc/areas/identity-providers.ts';
import { integrationRoutes } from './rpc/areas/integration-clients.ts';
import { jobsRoutes } from './rpc/areas/jobs.ts';
import { machinesRoutes } from './rpc/areas/machines.ts';
import { mailboxRoutes } from './rpc/areas/mailbox.ts';
import { messagesRoutes } from './rpc/areas/messages.ts';
import { notificationsRoutes } from './rpc/areas/notifications.ts';
import { ordersRoutes } from './rpc/areas/orders.ts';
import { patientAuthRoutes } from './rpc/areas/patient-auth.ts';
import { patientOrdersRoutes } from './rpc/areas/patient-orders.ts';
import { patientSignUpsRoutes } from './rpc/areas/patient-sign-ups.ts';
import { patientsRoutes } from './rpc/areas/patients.ts';
import { paymentSettingsRoutes } from './rpc/areas/payment-settings.ts';
import { qrCodesRoutes } from './rpc/areas/qr-codes.ts';
import { reportsRoutes } from './rpc/areas/reports.ts';
import { signUpsRoutes } from './rpc/areas/sign-ups.ts';
import { testMachinesRoutes } from './rpc/areas/test-machines.ts';
import { urlRoutes } from './rpc/areas/url.ts';
import { usersRoutes } from './rpc/areas/users.ts';
import { webhooksRoutes } from './rpc/areas/webhook-deliveries.ts';

/**
 * The hubs' settings: the machine hub's, and how often the console hub checks its open consoles'
 * sessions again (ms; default 60 s, 0: only when access changes).
 */
/** Paths whose requests are never logged: the health and readiness probes, and the metrics scrape. */
const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);

const decodablePath = (path: string): boolean => {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * A path as the access log may keep it: the secret part of a bearer URL is cut off (a delivery report
 * URL's token, a short link's code), so a log reader cannot replay a report or open a patient's link.
 */
export function loggablePath(path: string): string {
  const report = /^(\/hooks\/messages\/(?:smsworks|messagebird)\/[^/]+\/)[^/]+$/.exec(path);
  if (report) return `${report[1]}…`;
  if (path.startsWith('/hooks/messages/aws-sms/')) return '/hooks/messages/aws-sms/…';
  if (/^\/u\/[^/]+$/.test(path)) return '/u/…';
  return path;
}

export type HubOptions = MachineHubOptions & { consoleSessionCheckEveryMs?: number };

/** Every route: the RPC areas, both hubs, the integration API, the providers' callbacks, docs and static pages. */
function routes(deps: AppDeps, hubOptions: HubOptions) {
  // Staff's sign-ups and the patient page's in one plugin.
  const signUpAreas = new Elysia({ name: 'areas:signUps' }).use(signUpsRoutes(deps)).use(patientSignUpsRoutes(deps));
  // The integration client's RPC methods, its webhook delivery console and the integration API itself
  // (`/integration/v1`), likewise.
  const integrationAreas = new Elysia({ name: 'areas:integration' })
    .use(integrationRoutes(deps))
    .use(webhooksRoutes(deps))
    .use(integrationApiRoutes(deps));
  // The job runner's console, the reports, the evidence pack, data protection and the metrics scrape, likewise.
  const adminAreas = new Elysia({ name: 'areas:jobsReports' })
    .use(jobsRoutes(deps))
    .use(metricsRoutes(deps))
    .use(reportsRoutes(deps))
    .use(groupReportsRoutes(deps))
    .use(evidenceRoutes(deps))
    .use(dataProtectionRoutes(deps))
    .use(auditRoutes(deps));
  // Sign-in through an identity provider: the auth area's RPC methods (staff's, patients') and the
  // providers' ways back.
  const authAreas = new Elysia({ name: 'areas:auth' })
    .use(authRoutes(deps))
    .use(patientAuthRoutes(deps))
    .use(ssoRoutes(deps))
    .use(nhsLoginRoutes(deps));
  // The chain is split in three: one chain of every route is past TypeScript's depth limit.
  const people = new Elysia({ name: 'routes:people' })
    .use(healthRoutes(deps))
    .use(authAreas)
    .use(usersRoutes(deps))
    .use(identityProvidersRoutes(deps))
    .use(businessesRoutes(deps))
    .use(groupsRoutes(deps))
    .use(patientsRoutes(deps))
    .use(signUpAreas)
    .use(businessSettingsRoutes(deps))
    .use(paymentSettingsRoutes(deps))
    .use(globalSettingsRoutes(deps))
    .use(mailboxRoutes(deps))
    .use(notificationsRoutes(deps));
  const orders = new Elysia({ name: 'routes:orders' })
    .use(ordersRoutes(deps))
    .use(patientOrdersRoutes(deps))
    .use(machinesRoutes(deps))
    .use(alarmsRoutes(deps))
    .use(testMachinesRoutes(deps))
    .use(bagsRoutes(deps))
    .use(messagesRoutes(deps))
    .use(deviceAuthRoutes(deps))
    .use(integrationAreas)
    .use(messagingReportRoutes(deps))
    .use(checkoutRoutes(deps))
    .use(judopayWebhookRoutes(deps))
    .use(urlRoutes(deps))
    .use(adminAreas)
    .use(qrCodesRoutes(deps));
  return new Elysia({ name: 'routes' })
    .use(people)
    .use(orders)
    .use(machineHub(deps, hubOptions))
    .use(consoleHub(deps, { sessionCheckEveryMs: hubOptions.consoleSessionCheckEveryMs ?? 60_000 }))
    .use(docsRoutes(deps.config.productName))
    .use(patientStatic(deps.patientDir, { production: deps.config.production }))
    .use(consoleStatic(deps.consoleDir, { production: deps.config.production }));
}

/**
 * The whole HTTP surface, built from injected dependencies so tests run it in-process with
 * `app.handle(new Request(...))` on a fresh database.
 */
export function createApp(deps: AppDeps, hubOptions: HubOptions = defaultMachineHubOptions) {
  const started = new WeakMap<Request, number>();
  const metrics = metricsOf(deps);
  // Frames of the locker protocol are at most 64 KB (docs/LOCKER-PROTOCOL.md); a bigger message closes the socket.
  return (
    new Elysia({ name: 'medlocker', websocket: { maxPayloadLength: 64 * 1024 } })
      // Each request runs in its own scope, so jobs it queues and lines logged meanwhile carry its id.
      .wrap(withRequestScope)
      .onRequest(({ request, set, server }) => {
        started.set(request, performance.now());
        const meta = requestMeta(request, server, deps.config.trustProxy);
        enterRequestScope(meta.requestId);
        set.headers['x-request-id'] = meta.requestId;
        Object.assign(set.headers, securityHeaders, meta.secure ? HSTS : {});
        const { pathname } = new URL(request.url);
        // A path with a broken %-escape (`/files/logos/%ZZ`) reaches no route with a readable parameter.
        // (A short link answers any code it cannot read with its own plain 404 page, which patients see.)
        if (!pathname.startsWith('/u/') && !decodablePath(pathname)) {
          throw new AppError('BAD_REQUEST', 'The address is not valid');
        }
        if (request.method === 'POST' && pathname.startsWith('/api/')) {
          assertSameOrigin(request, deps.config.publicUrls);
        }
      })
      .onError(({ error, code, set, request }) => {
        const meta = requestMeta(request);
        const path = new URL(request.url).pathname;
        if (isIntegrationPath(path)) {
          // The integration API answers RFC 9457 problems, an unknown route and an unreadable path too.
          const p = problemOf(error, code, deps.logger, meta.requestId, decodablePath(path) ? path : '');
          return new Response(JSON.stringify(p.problem), {
            status: p.status,
            headers: {
              ...p.headers,
              ...securityHeaders,
              ...(meta.secure ? HSTS : {}),
              'x-request-id': meta.requestId,
              'content-type': PROBLEM_TYPE,
            },
          });
        }
        const { status, body, headers } = toErrorResponse(error, code, deps.logger, meta.requestId);
        set.status = status;
        Object.assign(set.headers, headers, securityHeaders, meta.secure ? HSTS : {}, {
          'x-request-id': meta.requestId,
        });
        return body;
      })
      .onAfterResponse((context) => {
        const { request, set } = context;
        const route = (context as { route?: string }).route;
        const begin = started.get(request);
        const ms = begin === undefined ? 0 : performance.now() - begin;
        const status = typeof set.status === 'number' ? set.status : 200;
        // By the matched route's pattern (undefined when none matched), never the raw path: bounded labels.
        metrics.observeRequest({ method: request.method, route: route || undefined, status, seconds: ms / 1000 });
        // One access line per request at info; the probes' paths are never logged (a balancer calls them
        // every second).
        if (!deps.logger.enabled('info')) return;
        const path = new URL(request.url).pathname;
        if (UNLOGGED.has(path)) return;
        // Path only, never the query string or body: those can carry patient details.
        deps.logger.info('request', {
          requestId: requestMeta(request).requestId,
          method: request.method,
          path: loggablePath(path),
          status,
          ms: Math.round(ms * 10) / 10,
        });
      })
      .use(routes(deps, hubOptions))
  );
}

export type App = ReturnType<typeof createApp>;
