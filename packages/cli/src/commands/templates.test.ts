// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { afterAll, beforeAll, expect, it } from 'bun:test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFeatureSettings } from '@medlocker/core';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness } from '../../../api/src/areas/patients/test-helpers.ts';
import { describeApi } from '../../../api/src/testing.ts';
import type { CliIo } from '../context.ts';
import { runCli } from '../program.ts';
import { applyAssignments } from './settings-values.ts';
import { checkTemplatesFile } from './templates.ts';

const PASSWORD = 'correct horse battery';
const ready = 'Ready at ${machineName}: PIN ${pin}, by ${expires}.';

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'medlocker-cli-settings-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

it('lists every problem of every template in a file', () => {
  const { problems } = checkTemplatesFile(
    JSON.stringify({ orderReady: 'PIN only', paymentRequired: 'Pay ${portl}', orderCollected: ' ', nope: 'x' }),
  );
  expect(problems).toEqual([
    'orderReady: Missing ${pin} placeholder',
    'orderReady: Missing ${expires} placeholder',
    'paymentRequired: Unknown placeholder ${portl}',
    'paymentRequired: Missing ${portal} placeholder',
    'orderCollected: Please enter a value',
    expect.stringContaining('nope: unknown template'),
  ]);
});

it('types a dotted setting as its current value is typed', () => {
  expect(
    applyAssignments(defaultFeatureSettings, [
      'orderCollection.defaultCollectionWindow=14',
      'charges.enabled=true',
      'smsSenderName=HighSt',
    ]),
  ).toEqual({ orderCollection: { defaultCollectionWindow: 14 }, charges: { enabled: true }, smsSenderName: 'HighSt' });
  expect(() => applyAssignments(defaultFeatureSettings, ['charges.enabled=yes'])).toThrow('true or false');
  expect(() => applyAssignments(defaultFeatureSettings, ['charges.colour=red'])).toThrow(
    "Unknown setting 'charges.colour'",
  );
});

describeApi('medlocker settings and templates', (t) => {
  let server: ReturnType<typeof Bun.serve> | undefined;
  let api = '';
  let dir = '';
  beforeAll(async () => {
    server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => t.app.handle(request) });
    api = `http://127.0.0.1:${server.port}`;
    dir = await mkdtemp(join(home, `${t.kind}-`));
  });
  afterAll(async () => {
    await server?.stop(true);
  });

  async function cli(args: string[], stdin = '') {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
      readStdin: async () => stdin,
      env: { XDG_CONFIG_HOME: join(dir, 'config'), MEDLOCKER_API: api },
      interactive: false,
      ask: async () => null,
    };
    const code = await runCli(args, io);
    return { code, stdout, stderr };
  }

  async function loggedIn() {
    const email = `ops.${Math.random().toString(36).slice(2)}@medlocker.test`;
    await t.createUser({ email, password: PASSWORD, support: true });
    expect((await cli(['login', '--email', email, '--password-stdin'], PASSWORD)).code).toBe(0);
  }

  const templateRows = () => t.db.selectFrom('business_sms_templates').selectAll().execute();

  it('validates every template before writing any: one bad template, nothing written, exit 1', async () => {
    await loggedIn();
    const a = await insertBusiness(t.db);
    const b = await insertBusiness(t.db);
    const path = join(dir, 'bad.json');
    await writeFile(path, JSON.stringify({ orderReady: ready, orderUpdated: 'Changed: by ${expires}' }));
    const res = await cli(['templates', 'import', path, '--business', `${a},${b}`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('nothing was written');
    expect(res.stderr).toContain('orderUpdated: Missing ${pin} placeholder');
    expect(await templateRows()).toEqual([]);
  }, 20_000);

  it('writes nothing when one business of the list is archived or unknown', async () => {
    await loggedIn();
    const a = await insertBusiness(t.db);
    const archived = await insertBusiness(t.db, { archived: true });
    const path = join(dir, 'good.json');
    await writeFile(path, JSON.stringify({ orderReady: ready }));
    const res = await cli(['templates', 'import', path, '--business', `${a},${archived},missing-id`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${archived}: archived`);
    expect(res.stderr).toContain('missing-id: Business missing-id not found');
    expect(await templateRows()).toEqual([]);
  }, 20_000);

  it('rolls templates out to businesses from a file, after a dry run that writes nothing', async () => {
    await loggedIn();
    const ids = [await insertBusiness(t.db), await insertBusiness(t.db), await insertBusiness(t.db)];
    const list = join(dir, 'businesses.txt');
    await writeFile(list, `# pilot\n${ids[0]}\n${ids[1]}, ${ids[2]}\n`);
    const path = join(dir, 'rollout.json');
    await writeFile(path, JSON.stringify({ templates: { orderReady: ready } }));
    const dry = await cli(['templates', 'import', path, '--businesses-from', list, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('nothing was written');
    expect(await templateRows()).toEqual([]);
    const res = await cli(['templates', 'import', path, '--businesses-from', list]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Importing: 3/3 businesses');
    expect(res.stdout).toContain('set for 3 of 3 businesses');
    expect((await templateRows()).map((r) => r.body)).toEqual([ready, ready, ready]);
    const out = join(dir, 'export.json');
    expect((await cli(['templates', 'export', '--business', ids[0] as string, '--out', out])).code).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8')).templates.orderReady).toBe(ready);
  }, 20_000);

  it('gets and sets business and global settings', async () => {
    await loggedIn();
    const id = await insertBusiness(t.db);
    const set = await cli([
      'settings',
      'set',
      '--business',
      id,
      'orderCollection.defaultCollectionWindow=14',
      'smsGateway=thesmsworks',
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('orderCollection.defaultCollectionWindow = 14');
    const got = await cli(['settings', 'get', '--business', id, '--json']);
    const body = JSON.parse(got.stdout);
    expect(body.settings.orderCollection.defaultCollectionWindow).toBe(14);
    expect(body.settings.smsGateway).toBe('thesmsworks');
    const bad = await cli(['settings', 'set', '--business', id, 'smsSenderName=ABCDEFGHIJKL']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('The Sender ID must be 1-11');
    expect((await cli(['settings', 'set', '--global', 'nhsPrescriptionCharge=9.90'])).code).toBe(0);
    expect((await cli(['settings', 'get', '--global'])).stdout).toContain('£9.90');
    const charge = await cli(['settings', 'set', '--global', 'nhsPrescriptionCharge=9.999']);
    expect(charge.code).toBe(2);
    expect(charge.stderr).toContain('Please enter a valid amount');
  }, 20_000);
});
