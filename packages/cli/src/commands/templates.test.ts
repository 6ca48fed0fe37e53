// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { expect, it } from 'bun:test';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultFeatureSettings } from '@medlocker/core';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';
import { applyAssignments } from './settings-values.ts';
import { checkTemplatesFile } from './templates.ts';

const ready = 'Ready at ${machineName}: PIN ${pin}, by ${expires}.';

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
  const { cli, loggedIn, dir: tmp } = cliHarness(t);

  const templateRows = () => t.db.selectFrom('business_sms_templates').selectAll().execute();

  it('validates every template before writing any: one bad template, nothing written, exit 1', async () => {
    await loggedIn();
    const a = await insertBusiness(t.db);
    const b = await insertBusiness(t.db);
    const path = join(tmp(), 'bad.json');
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
    const path = join(tmp(), 'good.json');
    await writeFile(path, JSON.stringify({ orderReady: ready }));
    const res = await cli(['templates', 'import', path, '--business', `${a},${archived},missing-id`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${archived}: archived`);
    expect(res.stderr).toContain('missing-id: No business has the id or name "missing-id"');
    expect(await templateRows()).toEqual([]);
  }, 20_000);

  it('rolls templates out to businesses from a file, after a dry run that writes nothing', async () => {
    await loggedIn();
    const ids = [await insertBusiness(t.db), await insertBusiness(t.db), await insertBusiness(t.db)];
    const list = join(tmp(), 'businesses.txt');
    await writeFile(list, `# pilot\n${ids[0]}\n${ids[1]}, ${ids[2]}\n`);
    const path = join(tmp(), 'rollout.json');
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
    const out = join(tmp(), 'export.json');
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
