import { afterAll, beforeAll, expect, it } from 'bun:test';
import { ApiError, lastAnswerAt, onSessionEnded, rpc, setApiOrigin } from './api.ts';

/** A local server answering as the api does, one way per method name. */
let server: ReturnType<typeof Bun.serve>;
const seen: { path: string; type: string | null; body: unknown }[] = [];
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname;
      seen.push({ path, type: request.headers.get('content-type'), body: await request.json() });
      const error = (status: number, code: string, message: string, details?: unknown, headers = {}) =>
        Response.json({ error: { code, message, ...(details ? { details } : {}) } }, { status, headers });
      switch (path) {
        case '/api/auth/patientSession':
          return Response.json({ expires: 2, idleExpires: 1, givenName: 'Pat' });
        case '/api/auth/verifyPatient': {
          const message =
            'We could not confirm your details. You have 4 tries left before this link is locked for 15 minutes.';
          return error(400, 'VALIDATION', message, [{ path: 'dateOfBirth', id: 'IDENTITY_NOT_CONFIRMED', message }]);
        }
        case '/api/auth/verifySmsCode':
          return error(429, 'RATE_LIMITED', 'Too many wrong tries', undefined, { 'retry-after': '900' });
        case '/api/patientOrders/list':
          return error(401, 'UNAUTHENTICATED', 'Your session has timed out. Please log in again');
        case '/api/auth/verifySms':
          return new Response('Bad gateway', { status: 502 });
        default:
          return error(500, 'INTERNAL', 'Something went wrong on our side');
      }
    },
  });
  setApiOrigin(`http://127.0.0.1:${server.port}`);
});
afterAll(() => server.stop(true));

async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

it('posts JSON to /api/{area}/{method} and answers the body', async () => {
  const before = lastAnswerAt();
  expect(await rpc('auth', 'patientSession')).toEqual({ expires: 2, idleExpires: 1, givenName: 'Pat' });
  expect(seen.at(-1)).toEqual({ path: '/api/auth/patientSession', type: 'application/json', body: {} });
  expect(lastAnswerAt()).toBeGreaterThanOrEqual(before);
});

it('turns a refusal into the server’s message, per field', async () => {
  const error = await failure(rpc('auth', 'verifyPatient', { orderId: 'o1', dateOfBirth: '1985-03-28' }));
  expect([error.status, error.code]).toEqual([400, 'VALIDATION']);
  expect(error.fieldErrors.dateOfBirth).toStartWith('We could not confirm your details. You have 4 tries left');
  expect(seen.at(-1)?.body).toEqual({ orderId: 'o1', dateOfBirth: '1985-03-28' });
  const locked = await failure(rpc('auth', 'verifySmsCode', { orderId: 'o1', code: '123456' }));
  expect([locked.status, locked.message, locked.retryAfter]).toEqual([429, 'Too many wrong tries', 900]);
});

it('tells the page when the session has ended', async () => {
  let told = 0;
  const stop = onSessionEnded(() => told++);
  const error = await failure(rpc('patientOrders', 'list'));
  stop();
  expect([error.status, told]).toEqual([401, 1]);
});

it('says the server could not be reached, and that anything else went wrong on its side', async () => {
  const proxy = await failure(rpc('auth', 'verifySms', { orderId: 'o1' }));
  expect([proxy.code, proxy.message]).toEqual([
    'UNREACHABLE',
    'The MedLocker server could not be reached. Check your connection and try again.',
  ]);
  expect((await failure(rpc('auth', 'endPatientSession'))).code).toBe('UNEXPECTED_STATUS');
  setApiOrigin('http://127.0.0.1:1');
  try {
    expect((await failure(rpc('auth', 'patientSession'))).code).toBe('UNREACHABLE');
  } finally {
    setApiOrigin(`http://127.0.0.1:${server.port}`);
  }
});
