import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, createRpcClient, sessionTokenOf, UnreachableError } from './client.ts';

describe('the shared RPC client', () => {
  it('posts the input as JSON to {baseUrl}/api/{area}/{method} with the caller’s headers', async () => {
    const seen: Request[] = [];
    const client = createRpcClient({
      baseUrl: 'http://locker.test/',
      headers: () => ({ authorization: 'Bearer t0k' }),
      fetch: async (url, init) => {
        seen.push(new Request(url, init));
        return Response.json({ productName: 'MedLocker', allowRegistration: false });
      },
    });
    expect(await client.call('auth', 'config')).toEqual({ productName: 'MedLocker', allowRegistration: false });
    expect(seen[0]?.url).toBe('http://locker.test/api/auth/config');
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer t0k');
    expect(await seen[0]?.json()).toEqual({});
  });

  it('throws the server’s code, message and field messages as an ApiError', async () => {
    const client = createRpcClient({
      fetch: async () =>
        Response.json(
          {
            error: {
              code: 'INVALID_LENGTH',
              message: 'Too long',
              details: [{ path: 'name', id: 'X', message: 'Too long' }],
            },
          },
          { status: 400 },
        ),
    });
    const error = await client.call('groups', 'createGroup', { name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_LENGTH');
    expect((error as ApiError).fieldErrors).toEqual({ name: 'Too long' });
  });

  it('says the server could not be reached when the network fails or a proxy answers 502', async () => {
    const down = createRpcClient({
      baseUrl: 'http://down.test',
      unreachableMessage: () => 'The Acme server could not be reached',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await down.raw('auth', 'config').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).message).toBe('The Acme server could not be reached');
    expect((error as UnreachableError).url).toBe('http://down.test');
    const proxy = createRpcClient({ fetch: async () => new Response('bad gateway', { status: 502 }) });
    expect(((await proxy.raw('auth', 'config').catch((e: unknown) => e)) as ApiError).code).toBe('UNREACHABLE');
  });

  it('reads the session token from a login answer’s cookie', () => {
    const headers = new Headers([['set-cookie', 'medlocker_session=abc%3D; Path=/; HttpOnly']]);
    expect(sessionTokenOf(headers)).toBe('abc=');
  });
});

describe('one RPC client', () => {
  const root = join(import.meta.dir, '../../../..');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules') return [];
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
    });

  it('is the only code that builds /api/{area}/{method} requests in the console, cli and e2e helpers', () => {
    const copies = ['packages/console/src', 'packages/cli/src', 'e2e']
      .flatMap((dir) => files(join(root, dir)))
      .filter((path) => !/\.test\.tsx?$/.test(path))
      .filter((path) => /[`'"]\/api\/\$\{|\.post\(`\/api\//.test(readFileSync(path, 'utf8')))
      .map((path) => path.slice(root.length + 1));
    expect(copies).toEqual([]);
  });
});
