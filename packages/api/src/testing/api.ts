import { beforeEach } from 'bun:test';
import type { AreaName, Contract, InputOf, Method, OutputOf } from '@medlocker/core';
import { describeDb, type TestDb } from '@medlocker/db/testing';
import { createApp } from '../app.ts';
import { type Config, loadConfig } from '../config/config.ts';
import type { AppDeps } from '../context/deps.ts';
import { silentLogger } from '../log/logger.ts';
import { createLocalTexts } from '../mail/local-texts.ts';
import { createMemoryMailer } from '../mail/mailer.ts';
import { createSessionAuth } from '../sessions/sessions.ts';
import { createTestUser, type SignedIn, signInTestUser, type TestUser, type TestUserOptions } from './sessions.ts';

export const TEST_ORIGIN = 'http://medlocker.test';

export type CallOptions = { cookie?: string; token?: string; origin?: string | null; headers?: Record<string, string> };

export type CallResult<T> = { status: number; body: T; headers: Headers };

/**
 * The error body of a refused call, as tests read it: optional so `toEqual(output)` type-checks on
 * success, loosely typed so `res.body.error.code` reads without a guard on failure.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the shape is ErrorBody['error'].
type MaybeError = { error?: any };

type MethodOf<A extends AreaName, M extends keyof Contract[A]> = Contract[A][M] extends Method ? Contract[A][M] : never;

export type TestApi = TestDb & {
  readonly app: ReturnType<typeof createApp>;
  readonly deps: AppDeps;
  /** Moves the test clock; `now()` starts at a fixed instant for every test. */
  advance(ms: number): void;
  /** `POST /api/{area}/{method}` in-process; the body type follows the contract. */
  call<A extends AreaName, M extends keyof Contract[A] & string>(
    area: A,
    method: M,
    // biome-ignore lint/suspicious/noExplicitAny: the contract gives the real type; tests also send bad input.
    input: InputOf<Contract[A][M] & any> | Record<string, unknown>,
    options?: CallOptions,
    // biome-ignore lint/suspicious/noExplicitAny: a method outside the contract (a test of a bad route) has no known body.
  ): Promise<CallResult<[MethodOf<A, M>] extends [never] ? any : OutputOf<MethodOf<A, M>> & MaybeError>>;
  raw(path: string, init?: RequestInit): Promise<Response>;
  /** A user with roles (`support: true` for a Support role), inserted directly. */
  createUser(options?: TestUserOptions): Promise<TestUser>;
  /** Such a user with a live session: pass `{ cookie }` or `{ token }` to `call`. */
  signIn(options?: TestUserOptions): Promise<SignedIn>;
};

export const T0 = Date.UTC(2026, 10, 2, 9, 30);

/**
 * An API suite on a fresh migrated database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 * `overrides` replaces dependencies, e.g. a real auth port or a mail catcher.
 */
export function describeApi(
  name: string,
  body: (t: TestApi) => void,
  overrides: (base: AppDeps) => Partial<AppDeps> = () => ({}),
  env: Record<string, string> = {},
): void {
  describeDb(name, (db) => {
    let clock = T0;
    let built: { app: ReturnType<typeof createApp>; deps: AppDeps } | undefined;
    // The tests' identity providers (oidc-provider, metadata servers) listen on http://127.0.0.1;
    // sso/provider-fetch.test.ts passes SSO_ALLOW_HTTP_LOOPBACK: '0' to test the production rule.
    const config: Config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: TEST_ORIGIN,
      SSO_ALLOW_HTTP_LOOPBACK: '1',
      ...env,
    });
    const ensure = () => {
      if (!built) {
        const base: AppDeps = {
          db: db.db,
          dbKind: db.kind,
          config,
          logger: silentLogger,
          now: () => clock,
          // The real session auth and an in-memory mailer; override either (e.g. a mail catcher).
          auth: createSessionAuth(() => db.db),
          mailer: createMemoryMailer(),
          // The local gateway's texts, as a development server keeps them (never in production).
          ...(config.production ? {} : { localTexts: createLocalTexts() }),
        };
        const deps = { ...base, ...overrides(base) };
        built = { app: createApp(deps), deps };
      }
      return built;
    };
    const t: TestApi = {
      kind: db.kind,
      get db() {
        return db.db;
      },
      get app() {
        return ensure().app;
      },
      get deps() {
        return ensure().deps;
      },
      advance: (ms) => {
        clock += ms;
      },
      call: async (area, method, input, options = {}) => {
        const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
        if (options.origin !== null) headers.origin = options.origin ?? TEST_ORIGIN;
        if (options.cookie) headers.cookie = options.cookie;
        if (options.token) headers.authorization = `Bearer ${options.token}`;
        const res = await ensure().app.handle(
          new Request(`${TEST_ORIGIN}/api/${area}/${method}`, { method: 'POST', headers, body: JSON.stringify(input) }),
        );
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
      },
      raw: (path, init) => ensure().app.handle(new Request(`${TEST_ORIGIN}${path}`, init)),
      // Password hashes get the app's configured argon2id cost, as auth.login and password resets do.
      createUser: (options) =>
        createTestUser(db.db, clock, { passwordHashing: ensure().deps.config.passwordHashing, ...options }),
      signIn: (options) =>
        signInTestUser(db.db, clock, { passwordHashing: ensure().deps.config.passwordHashing, ...options }),
    };
    beforeEach(() => {
      clock = T0;
    });
    body(t);
  });
}
