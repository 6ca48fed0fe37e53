import { expect, it, setDefaultTimeout } from 'bun:test';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeApi } from '../../../api/src/testing/api.ts';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { insertBusiness, nhsSettings, testNhsNumber } from '../../../api/src/testing/patients.ts';
import { cliHarness } from '../test-harness.ts';

// Each login hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

describeApi('medlocker --business and automatic column mapping', (t) => {
  const { cli, loggedIn, dir } = cliHarness(t);
  const named = async (name: string) => {
    const id = await insertBusiness(t.db, { displayIdField: nhsSettings });
    await t.db.updateTable('businesses').set({ name }).where('id', '=', id).execute();
    return id;
  };
  const csv = async (name: string, lines: string[]) => {
    const path = join(dir(), name);
    await writeFile(path, `${lines.join('\r\n')}\r\n`);
    return path;
  };

  it('imports a file whose columns have the usual names without --map, into a business given by name', async () => {
    await loggedIn();
    const id = await named('Boots Leeds');
    const path = await csv('named.csv', [
      'NHS No,Forename,Surname,Phone,E-mail,DOB',
      `${testNhsNumber(3)},Ada,Lovelace,07700 900123,ada@example.com,10-12-1990`,
      `${testNhsNumber(6)},Grace,Hopper,07700 900456,grace@example.com,09-12-1986`,
    ]);
    const res = await cli(['patients', 'import', '--business', 'boots leeds', path]);
    expect(res.stderr).toContain(
      'Columns mapped by their names: 0=NHS No → NhsNumber, 1=Forename → GivenName, 2=Surname → FamilyName, 3=Phone → Mobile, 4=E-mail → Email, 5=DOB → DateOfBirth',
    );
    expect(res.code).toBe(0);
    const rows = await t.db.selectFrom('patients').select(['business_id', 'full_name']).orderBy('full_name').execute();
    expect(rows).toEqual([
      { business_id: id, full_name: 'Ada Lovelace' },
      { business_id: id, full_name: 'Grace Hopper' },
    ]);
  });

  it('takes a business id or name in any command, and refuses a name two businesses have, listing their ids', async () => {
    await loggedIn();
    const leeds = await named('Boots Leeds');
    const first = await named('Lloyds');
    const second = await named('LLOYDS');
    const byId = await cli(['messages', 'list', '--business', leeds, '--json']);
    expect(byId.code).toBe(0);
    const byName = await cli(['messages', 'list', '--business', 'Boots Leeds', '--json']);
    expect(byName.code).toBe(0);
    expect(byName.json()).toEqual(byId.json());

    const ambiguous = await cli(['settings', 'get', '--business', 'lloyds']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('2 businesses are named "lloyds"; give the id of the one you mean:');
    expect(ambiguous.stderr).toContain(`(--business ${first})`);
    expect(ambiguous.stderr).toContain(`(--business ${second})`);

    const unknown = await cli(['templates', 'export', '--business', 'Boots']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No business has the id or name "Boots". Businesses whose names contain it:');
    expect(unknown.stderr).toContain(`Boots Leeds  (--business ${leeds})`);
  });
});
