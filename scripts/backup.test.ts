// `npm run backup` and `npm run restore` (PostgreSQL only: runs when TEST_DATABASE_URL is set): a populated
// database and its logos backed up, restored into an empty database and data folder, and everything that
// depends on SECRETS_KEY still working there: a restored PIN opens its locker, a restored webhook secret
// opens, a restored logo is served.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type Db, migrateToLatest } from '../db/src/index.ts';
import { createFreshPostgresDatabase } from '../db/src/testing.ts';
import { createApp } from '../packages/api/src/app.ts';
import { verifyPin } from '../packages/api/src/areas/orders/index.ts';
import { DEV_ADMIN_PASSWORD, loadConfig } from '../packages/api/src/config/config.ts';
import type { AppDeps } from '../packages/api/src/context/deps.ts';
import { openSealedWebhookSecret } from '../packages/api/src/delivery/webhooks/secrets.ts';
import { silentLogger } from '../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../packages/api/src/mail/mailer.ts';
import { seedIfEmpty } from '../packages/api/src/seed-demo.ts';
import { createSessionAuth } from '../packages/api/src/sessions/sessions.ts';

const base = process.env.TEST_DATABASE_URL;
const script = join(import.meta.dir, 'backup.mjs');
const ORIGIN = 'http://medlocker.test';
/** A 1×1 PNG. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The api on a database and data folder, as a test drives it. */
function apiOn(db: Db, dataDir: string) {
  const deps: AppDeps = {
    db: db.db,
    dbKind: db.kind,
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN, DATA_DIR: dataDir }),
    logger: silentLogger,
    now: Date.now,
    auth: createSessionAuth(() => db.db),
    mailer: createMemoryMailer(),
  };
  const app = createApp(deps);
  let cookie = '';
  const call = async (path: string, body: unknown) => {
    const res = await app.handle(
      new Request(`${ORIGIN}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
        body: JSON.stringify(body),
      }),
    );
    const answer = (await res.json()) as Record<string, never>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0] ?? '';
    return answer as Record<string, unknown>;
  };
  return { deps, app, call };
}

const tool = (command: string, folder: string, env: Record<string, string>) =>
  spawnSync('node', [script, command, folder], { env: { ...process.env, ...env }, encoding: 'utf8' });

describe.skipIf(!base)('backups that have been restored [postgres]', () => {
  let from: Awaited<ReturnType<typeof createFreshPostgresDatabase>>;
  let into: Awaited<ReturnType<typeof createFreshPostgresDatabase>>;
  const folders = {
    fromData: mkdtempSync(join(tmpdir(), 'medlocker-backup-data-')),
    intoData: mkdtempSync(join(tmpdir(), 'medlocker-restore-data-')),
    backup: join(mkdtempSync(join(tmpdir(), 'medlocker-backup-')), 'backup'),
  };
  let source: Db;
  let restored: Db;

  beforeAll(async () => {
    from = await createFreshPostgresDatabase(base as string);
    into = await createFreshPostgresDatabase(base as string);
    source = await createDb({ kind: 'postgres', url: from.url, max: 2 });
    restored = await createDb({ kind: 'postgres', url: into.url, max: 2 });
    await migrateToLatest(source.db);
  });
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    await from?.drop();
    await into?.drop();
    for (const dir of Object.values(folders)) rmSync(dir, { recursive: true, force: true });
  });

  it('restores orders, patients, sealed PINs, webhook secrets and logos that all work afterwards', async () => {
    // A populated estate: the demo (orders in every state, their PINs sealed with SECRETS_KEY), a logo
    // and an integration client with a webhook secret.
    const before = apiOn(source, folders.fromData);
    await seedIfEmpty(before.deps, { printDevLogin: false });
    await before.call('auth/login', { username: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD });
    const { businesses } = (await before.call('businesses/listBusinesses', {})) as { businesses: { id: string }[] };
    const businessId = businesses[0]?.id as string;
    const { path: logo } = (await before.call('businesses/uploadLogo', { entityId: businessId, dataUrl: PNG })) as {
      path: string;
    };
    const { client } = (await before.call('integration/createOrUpdateIntegrationClient', {
      businessId,
      name: 'Backup PMR',
      contactEmail: 'pmr@example.test',
      suppressPatientMessages: false,
      webhookUrl: null,
      rateLimit: 1200,
    })) as { client: { id: string } };
    const { webhookSecret } = (await before.call('integration/generateWebhookSecret', { id: client.id })) as {
      webhookSecret: string;
    };

    const backedUp = tool('backup', folders.backup, { DATABASE_URL: from.url, DATA_DIR: folders.fromData });
    expect(backedUp.status).toBe(0);
    expect(JSON.parse(backedUp.stdout)).toMatchObject({ logos: 1 });

    const back = tool('restore', folders.backup, { DATABASE_URL: into.url, DATA_DIR: folders.intoData });
    expect(back.stderr).toBe('');
    expect(back.status).toBe(0);

    const after = apiOn(restored, folders.intoData);
    const count = async (db: Db, table: 'orders' | 'patients') =>
      Number(
        (
          await db.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count(restored, 'orders')).toBe(await count(source, 'orders'));
    expect(await count(restored, 'patients')).toBe(await count(source, 'patients'));
    expect(await count(restored, 'orders')).toBeGreaterThan(0);

    // A restored PIN opens its locker.
    await after.call('auth/login', { username: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD });
    const loaded = await restored.db
      .selectFrom('orders')
      .select(['id', 'machine_id', 'business_id'])
      .where('status', '=', 'loaded')
      .where('payment_status', '!=', 'unpaid')
      .executeTakeFirstOrThrow();
    const { pin } = (await after.call('orders/setRevealPinReason', { id: loaded.id, reason: 'Patient lost SMS' })) as {
      pin: string;
    };
    const locker = {
      kind: 'locker' as const,
      machineId: loaded.machine_id ?? '',
      businessId: loaded.business_id,
      origin: { via: 'test' as const, requestId: 'restore-test', ip: null, userAgent: null },
    };
    expect(await verifyPin(after.deps, locker, pin)).toMatchObject({ status: 'Accepted' });

    // A restored webhook secret opens to what was made before the backup.
    const row = await restored.db
      .selectFrom('integration_clients')
      .select(['id', 'webhook_secret_encrypted'])
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(openSealedWebhookSecret(after.deps, row.id, row.webhook_secret_encrypted as string)).toBe(webhookSecret);

    // A restored logo is served.
    const served = await after.app.handle(new Request(`${ORIGIN}${logo}`));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  }, 120_000);

  it('refuses to restore into a database that is not empty, and changes nothing', () => {
    const again = tool('restore', folders.backup, { DATABASE_URL: into.url, DATA_DIR: folders.intoData });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('The database is not empty');
  });

  it('says how the embedded database is backed up, and refuses a wrong command line', () => {
    const embedded = tool('backup', join(folders.backup, 'x'), { DATABASE_URL: '' });
    expect(embedded.status).toBe(1);
    expect(embedded.stderr).toContain('copying DATA_DIR');
    expect(spawnSync('node', [script, 'nope'], { encoding: 'utf8' }).status).toBe(2);
  });
});
