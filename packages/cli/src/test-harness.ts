import { afterAll, beforeAll, expect } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import type { TestApi } from '../../api/src/testing/api.ts';
import { supportWithoutSecondFactor } from '../../api/src/testing/auth.ts';
import type { CliIo } from './context.ts';
import { runCli } from './program.ts';

export const TEST_PASSWORD = 'correct horse battery';

/**
 * The cli against a real server for one describeApi target: the in-process app on a loopback port, and
 * a temporary folder (`dir()`) holding the cli's config and a test's files, removed afterwards.
 */
export function cliHarness(t: TestApi) {
  let server: ReturnType<typeof Bun.serve> | undefined;
  let api = '';
  let dir = '';
  beforeAll(async () => {
    server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => t.app.handle(request) });
    api = `http://127.0.0.1:${server.port}`;
    dir = await mkdtemp(join(tmpdir(), `medlocker-cli-${t.kind}-`));
  });
  afterAll(async () => {
    await server?.stop(true);
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs one command line; `stdin` is what --password-stdin and `-` files read. */
  async function cli(args: string[], options: { stdin?: string } = {}) {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
      readStdin: async () => options.stdin ?? '',
      env: { XDG_CONFIG_HOME: join(dir, 'config'), MEDLOCKER_API: api },
      interactive: false,
      ask: async () => null,
    };
    const code = await runCli(args, io);
    return { code, stdout, stderr, json: () => JSON.parse(stdout) };
  }

  /** Logs the cli in as a new support user; answers a support session for direct API calls. */
  async function loggedIn() {
    // As in the demo world: support staff sign in with the password alone (cli.test.ts signs in with a code).
    await supportWithoutSecondFactor(t);
    const email = `ops.${Math.random().toString(36).slice(2)}@medlocker.test`;
    await t.createUser({ email, password: TEST_PASSWORD, support: true });
    expect((await cli(['login', '--email', email, '--password-stdin'], { stdin: TEST_PASSWORD })).code).toBe(0);
    const admin = await t.signIn({ support: true });
    return { cookie: admin.cookie };
  }

  return {
    cli,
    loggedIn,
    dir: () => dir,
    /** The server's URL, as the cli names it. */
    api: () => api,
    /** Where the cli keeps its sessions. */
    credentialsFile: () => join(dir, 'config', 'medlocker', 'credentials.json'),
  };
}
