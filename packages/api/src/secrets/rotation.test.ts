// Rotating SECRETS_KEY end to end, on both databases: a populated estate sealed under key A; the api
// restarted with "B,A" keeps serving (PINs open lockers, staff reveal PINs, new orders load) while the
// re-seal job runs; then with B alone every sealed secret and PIN lookup works, nothing is left under A,
// and report URLs made under A stop.
import { expect, it } from 'bun:test';
import { createCipheriv, randomBytes } from 'node:crypto';
import { describeDb, type TestDb } from '@medlocker/db/testing';
import { sql } from 'kysely';
import { createApp } from '../app.ts';
import { verifyPin } from '../areas/orders/index.ts';
import { DEV_ADMIN_PASSWORD, loadConfig } from '../config/config.ts';
import type { AppDeps } from '../context/deps.ts';
import { reportToken, reportTokenMatches } from '../delivery/messages/report-urls.ts';
import { silentLogger } from '../log/logger.ts';
import { createMemoryMailer } from '../mail/mailer.ts';
import { seedIfEmpty } from '../seed-demo.ts';
import { createSessionAuth } from '../sessions/sessions.ts';
import { resealSecrets } from './reseal.ts';
import { sealedNotUnder } from './reseal-repository.ts';
import { sealedColumns, sealingContexts } from './sealed-columns.ts';
import { createSecretBox, currentSealPrefix } from './secret-box.ts';

const ORIGIN = 'http://medlocker.test';
const keyText = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const A = keyText(11);
const B = keyText(12);

/** The api with SECRETS_KEY set to `secretsKey`, signed in as the demo's support admin. */
async function apiWith(db: TestDb, secretsKey: string) {
  const deps: AppDeps = {
    db: db.db,
    dbKind: db.kind,
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN, SECRETS_KEY: secretsKey }),
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
  if (!(await db.db.selectFrom('users').select('id').limit(1).executeTakeFirst()))
    await seedIfEmpty(deps, { printDevLogin: false });
  await call('auth/login', { username: 'admin@medlocker.test', password: DEV_ADMIN_PASSWORD });
  return { deps, call };
}

/** Every sealed value in the database opened with `api`'s ring: `column id` → the secret in clear. */
async function openEverything(db: TestDb, deps: AppDeps): Promise<Map<string, string>> {
  const box = createSecretBox(deps.config.secretsKey);
  const opened = new Map<string, string>();
  for (const column of sealedColumns) {
    for (const value of await sealedNotUnder(db.db, column, '-', '', 100_000)) {
      opened.set(`${column.name} ${value.id}`, box.open(value.sealed, column.context(value.ref)));
    }
  }
  return opened;
}

/** A value sealed as it was before the key ring: `v1.`, the key itself as the AES key. */
function sealedBeforeTheRing(key: string, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

const lockerOf = (order: { machine_id: string | null; business_id: string }) => ({
  kind: 'locker' as const,
  machineId: order.machine_id ?? '',
  businessId: order.business_id,
  origin: { via: 'test' as const, requestId: 'rotation-test', ip: null, userAgent: null },
});

describeDb('rotating SECRETS_KEY', (db) => {
  it('knows every column that keeps a sealed value, so a rotation leaves none behind', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()
        and (column_name like '%encrypted%' or column_name like '%sealed%' or column_name = 'pin')`.execute(db.db);
    expect(rows.length).toBeGreaterThan(0);
    // bags.pin is never written but null: a bag's PIN is its order's.
    const unknown = rows.filter(
      (r) =>
        !(r.table_name === 'bags' && r.column_name === 'pin') &&
        !sealedColumns.some((c) => c.table === r.table_name && c.column === r.column_name),
    );
    expect(unknown).toEqual([]);
  });

  it('seals every secret and PIN lookup again under a new key while serving, after which the old key can go', async () => {
    // An estate sealed under A: the demo's orders and PINs, card payment credentials, a test machine's
    // tokens, an integration client's current and previous webhook secrets, an identity provider's client
    // secret, an authenticator app's secret, and one card secret still sealed as before the key ring.
    const before = await apiWith(db, A);
    const { businesses } = (await before.call('businesses/listBusinesses', {})) as { businesses: { id: string }[] };
    const businessId = businesses[0]?.id as string;
    await before.call('paymentSettings/updatePaymentSettings', {
      businessId,
      contactNumber: '0121 496 0000',
      legalInfo: 'High St Pharmacy Ltd',
      provider: 'judo',
      judo: {
        id: '100200300',
        sandbox: true,
        token: 'tok-rotation',
        secret: 'sec-rotation',
        showVisa: true,
        showAmex: true,
        showMastercard: true,
      },
    });
    await db.db
      .updateTable('payment_settings')
      .set({
        judo_secret_encrypted: sealedBeforeTheRing(A, 'sec-before-the-ring', sealingContexts.paymentSecret(businessId)),
      })
      .where('business_id', '=', businessId)
      .execute();
    await before.call('testMachines/create', { businessId, name: 'Rotation Rig', numberOfSlots: 4 });
    const { client } = (await before.call('integration/createOrUpdateIntegrationClient', {
      businessId,
      name: 'Rotation PMR',
      contactEmail: 'pmr@example.test',
      suppressPatientMessages: false,
      webhookUrl: null,
      rateLimit: 1200,
    })) as { client: { id: string } };
    await before.call('integration/generateWebhookSecret', { id: client.id });
    await before.call('integration/generateWebhookSecret', { id: client.id });
    await before.call('qrCodes/rotateSigningKey', { businessId });
    await db.db
      .insertInto('identity_providers')
      .values({
        id: 'idp-rotation',
        name: 'Rotation IdP',
        type: 'OIDC',
        configuration: JSON.stringify({
          clientId: 'medlocker',
          clientSecretSealed: createSecretBox(before.deps.config.secretsKey).seal(
            'idp-secret',
            sealingContexts.identityProviderSecret('idp-rotation'),
          ),
          issuerUrl: 'https://idp.example.test',
        }),
        created: 1,
        updated: 1,
      })
      .execute();
    // Someone other than the admin these calls sign in as (a factor would ask them for a code).
    const someone = { id: 'user-rotation' };
    await db.db
      .insertInto('users')
      .values({
        id: someone.id,
        email: 'totp@example.test',
        email_normalised: 'totp@example.test',
        password_hash: null,
        identity_provider_id: null,
        front_end: 'pharmacy',
        created: 1,
        updated: 1,
        last_sign_in: null,
        disabled_at: null,
        disabled_reason: null,
        enabled_at: null,
      })
      .execute();
    await db.db
      .insertInto('second_factors')
      .values({
        id: 'factor-rotation',
        user_id: someone.id,
        kind: 'totp',
        name: 'Phone',
        totp_secret: createSecretBox(before.deps.config.secretsKey).seal(
          'JBSWY3DPEHPK3PXP',
          sealingContexts.totpSecret('factor-rotation'),
        ),
        created: 1,
      })
      .execute();
    const secrets = await openEverything(db, before.deps);
    for (const column of sealedColumns.filter((c) => c.table !== 'cli_sign_ins')) {
      expect([...secrets.keys()].some((k) => k.startsWith(`${column.name} `))).toBe(true);
    }
    expect(secrets.get(`card payment secrets ${businessId}`)).toBe('sec-before-the-ring');

    // The PINs of loaded orders, as staff reveal them: what the lockers will be asked to open.
    const loaded = await db.db
      .selectFrom('orders')
      .select(['id', 'machine_id', 'business_id'])
      .where('status', '=', 'loaded')
      .where('payment_status', '!=', 'unpaid')
      .execute();
    expect(loaded.length).toBeGreaterThan(0);
    const pins = new Map<string, string>();
    for (const order of loaded) {
      const { pin } = (await before.call('orders/setRevealPinReason', { id: order.id, reason: 'Rotation' })) as {
        pin: string;
      };
      pins.set(order.id, pin);
    }
    const oldReportToken = reportToken(before.deps.config, 'smsworks:m1');

    // B added before A: the api serves, under both keys, while the job seals everything again.
    const during = await apiWith(db, `${B},${A}`);
    const serving = (async () => {
      let answered = 0;
      for (let round = 0; round < 3; round++) {
        for (const order of loaded) {
          expect(await verifyPin(during.deps, lockerOf(order), pins.get(order.id) as string)).toMatchObject({
            status: 'Accepted',
          });
          const { pin } = (await during.call('orders/setRevealPinReason', { id: order.id, reason: 'Rotation' })) as {
            pin: string;
          };
          expect(pin).toBe(pins.get(order.id) as string);
          answered++;
        }
      }
      return answered;
    })();
    const [outcome, answered] = await Promise.all([resealSecrets(db.db, during.deps.config.secretsKey), serving]);
    expect(answered).toBe(loaded.length * 3);
    expect(outcome.left).toBe(0);
    expect(outcome.resealed).toBe(secrets.size);
    expect(reportTokenMatches(during.deps.config, 'smsworks:m1', oldReportToken)).toBe(true);

    // A removed: everything opens under B alone, the same as before, and nothing is left under A.
    const after = await apiWith(db, B);
    expect(await openEverything(db, after.deps)).toEqual(secrets);
    for (const column of sealedColumns) {
      expect(await sealedNotUnder(db.db, column, currentSealPrefix(after.deps.config.secretsKey), '', 1)).toEqual([]);
    }
    for (const order of loaded) {
      expect(await verifyPin(after.deps, lockerOf(order), pins.get(order.id) as string)).toMatchObject({
        status: 'Accepted',
      });
      const { pin } = (await after.call('orders/setRevealPinReason', { id: order.id, reason: 'Rotation' })) as {
        pin: string;
      };
      expect(pin).toBe(pins.get(order.id) as string);
    }
    expect(reportTokenMatches(after.deps.config, 'smsworks:m1', oldReportToken)).toBe(false);
    expect(reportTokenMatches(after.deps.config, 'smsworks:m1', reportToken(after.deps.config, 'smsworks:m1'))).toBe(
      true,
    );

    // A second pass finds nothing to do.
    expect(await resealSecrets(db.db, after.deps.config.secretsKey)).toMatchObject({ resealed: 0, left: 0 });
  }, 120_000);
});
