import { afterEach, describe, expect, it } from 'bun:test';
import { ApiError, onAuthFailure, rpc } from './client.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

function answer(status: number, body: unknown) {
  globalThis.fetch = (async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    })) as unknown as typeof fetch;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('rpc', () => {
  it('posts JSON to /api/{area}/{method} and resolves with the answer', async () => {
    let seen: Request | undefined;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen = new Request(new URL(String(input), 'http://console.test'), init);
      return Response.json({ allowRegistration: true, productName: 'MedLocker' });
    }) as unknown as typeof fetch;
    expect(await rpc('auth', 'config')).toEqual({ allowRegistration: true, productName: 'MedLocker' });
    expect(seen?.method).toBe('POST');
    expect(new URL(seen?.url ?? '').pathname).toBe('/api/auth/config');
    expect(seen?.headers.get('content-type')).toBe('application/json');
  });

  it('turns an error body into an ApiError with per-field messages', async () => {
    answer(400, {
      error: {
        code: 'VALIDATION',
        message: 'Enter a valid email address',
        details: [{ path: 'email', id: 'EXPECTED_EMAIL', message: 'Enter a valid email address' }],
      },
    });
    const error = await failure(rpc('auth', 'beginResetPassword', { email: 'x', frontEnd: 'support' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION');
    expect(error.fieldErrors).toEqual({ email: 'Enter a valid email address' });
  });

  it('says the server could not be reached when the network fails', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const error = await failure(rpc('auth', 'config'));
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toBe('The MedLocker server could not be reached');
  });

  it('reports other statuses as unexpected', async () => {
    answer(500, { error: { code: 'INTERNAL', message: 'Something went wrong on our side' } });
    const error = await failure(rpc('auth', 'config'));
    expect(error.code).toBe('UNEXPECTED_STATUS');
    expect(error.message).toBe('Unexpected response status (500)');
  });

  it('tells the session about 401 and 403 answers', async () => {
    const heard: number[] = [];
    const stop = onAuthFailure((error) => heard.push(error.status));
    answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Your session has timed out. Please log in again' } });
    await failure(rpc('users', 'getUser', { id: 'u1' }));
    answer(403, { error: { code: 'FORBIDDEN', message: 'You do not have access to this area' } });
    await failure(rpc('users', 'getUser', { id: 'u1' }));
    answer(404, { error: { code: 'NOT_FOUND', message: 'No such user' } });
    await failure(rpc('users', 'getUser', { id: 'u1' }));
    stop();
    expect(heard).toEqual([401, 403]);
  });
});
