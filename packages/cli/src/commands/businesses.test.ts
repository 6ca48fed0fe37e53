import { expect, it } from 'bun:test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { validBusiness } from '../../../api/src/testing/businesses.ts';
import { cliHarness } from '../test-harness.ts';

describeApi('medlocker businesses and groups', (t) => {
  const { cli, loggedIn, dir: tmp } = cliHarness(t);

  async function business(as: { cookie: string }, name: string): Promise<string> {
    return (await t.call('businesses', 'createBusiness', validBusiness(name), as)).body.business.id;
  }

  it('archives in bulk from a file past a bad id, reports it and exits 1', async () => {
    const as = await loggedIn();
    const a = await business(as, 'Alpha');
    const b = await business(as, 'Beta');
    const file = join(tmp(), 'ids.txt');
    await writeFile(file, `# businesses closing in March\n${a}\n\nno-such-business  # typo\n${b}\n`);
    const run = await cli(['businesses', 'archive', '--from', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Archive ${a}: done`);
    expect(run.stderr).toContain('Archive no-such-business: failed: No business with id no-such-business');
    expect(run.stderr).toContain('Archive: 2 of 3 done, 1 failed');
    for (const id of [a, b])
      expect((await t.call('businesses', 'getBusiness', { id }, as)).body.business.archived).not.toBeNull();

    // Standard input and --json; a repeat is harmless.
    const again = await cli(['businesses', 'unarchive', '--from', '-', '--json'], { stdin: `${a}\n${b}\n` });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ ok: true, total: 2, succeeded: [a, b], failed: [] });
    const failedJson = await cli(['businesses', 'archive', a, 'nope', '--json']);
    expect(failedJson.code).toBe(1);
    expect(JSON.parse(failedJson.stdout).error.message).toContain('nope: No business with id nope');
    expect((await cli(['businesses', 'archive'])).code).toBe(2);
  }, 30_000);

  it('lists and shows businesses, archived ones on their own', async () => {
    const as = await loggedIn();
    const a = await business(as, 'Gamma');
    await business(as, 'Delta');
    await t.call('businesses', 'archiveBusiness', { id: a }, as);
    const list = await cli(['businesses', 'list', '--filter', 'del']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Delta');
    expect(list.stdout).not.toContain('Gamma');
    const archived = await cli(['businesses', 'list', '--archived', '--json']);
    expect(JSON.parse(archived.stdout).businesses.map((b: { name: string }) => b.name)).toContain('Gamma');
    // A business in a group lists and shows the group's name, not its id.
    const group = (await t.call('groups', 'createGroup', { name: 'Northern Group' }, as)).body.group;
    const delta = (await cli(['businesses', 'list', '--filter', 'del', '--json'])).json().businesses[0];
    expect((await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [delta.id] }, as)).status).toBe(
      200,
    );
    const grouped = await cli(['businesses', 'list', '--filter', 'del']);
    expect(grouped.stdout).toMatch(/Delta.*Northern Group/);
    expect(grouped.stdout).not.toContain(group.id);
    expect((await cli(['businesses', 'show', delta.id])).stdout).toMatch(/Group:\s+Northern Group \(/);
    const show = await cli(['businesses', 'show', a]);
    expect(show.stdout).toContain('LS1 6HD');
    expect(show.stdout).toMatch(/Archived:\s+\d{4}-\d{2}-\d{2} by Test User/);
    expect((await cli(['businesses', 'show', 'missing'])).code).toBe(1);
  }, 30_000);

  it('links, shows, unlinks and archives groups, refusing links to an archived group', async () => {
    const as = await loggedIn();
    const group = (await t.call('groups', 'createGroup', { name: 'Northern Group' }, as)).body.group;
    const a = await business(as, 'Epsilon');
    const b = await business(as, 'Zeta');
    const link = await cli(['groups', 'link', group.id, a, b]);
    expect(link.code).toBe(0);
    const show = await cli(['groups', 'show', group.id, '--json']);
    expect(JSON.parse(show.stdout).businesses.map((x: { id: string }) => x.id)).toEqual([a, b]);
    expect((await cli(['groups', 'list', '--filter', 'north'])).stdout).toContain('Northern Group');

    expect((await cli(['groups', 'unlink', b])).code).toBe(0);
    expect((await cli(['groups', 'archive', group.id])).code).toBe(0);
    const refused = await cli(['groups', 'link', group.id, b]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is archived: businesses cannot be linked to it until it is unarchived');
    expect((await cli(['groups', 'list', '--archived'])).stdout).toContain('Northern Group');
    expect((await cli(['groups', 'unarchive', group.id])).code).toBe(0);
  }, 30_000);
});
