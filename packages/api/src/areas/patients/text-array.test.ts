import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { describeApi } from '../../testing/api.ts';
import { textArrayLiteral } from './import-repository.ts';

// An import sends each column as one text[] literal: whatever a cell holds, the database must read back
// exactly the strings sent, in order, with null as NULL (the quick JSON form and the element-by-element one).
describeApi('patients import: text[] literals', (t) => {
  const read = async (values: (string | null)[]) => {
    const { rows } = await sql<{ v: (string | null)[] }>`select ${textArrayLiteral(values)}::text[] as v`.execute(t.db);
    return rows[0]?.v;
  };

  it('reads back plain text, quotes, backslashes, braces, commas, blanks, NULL-like words and nulls', async () => {
    const values = [
      'Zoë 😀',
      'a "quoted" name',
      'back\\slash',
      'ends with \\',
      '\\"',
      '{x,y}',
      ' ',
      '',
      'NULL',
      'null',
      null,
    ];
    expect(textArrayLiteral(values).startsWith('{"Zoë')).toBe(true);
    expect(await read(values)).toEqual(values);
  });

  it('reads back control characters and a backslash before a letter (the element-by-element form)', async () => {
    const values = ['line\nbreak', 'tab\there', '\\n is not a newline', 'bell\u0007', null, 'plain'];
    expect(await read(values)).toEqual(values);
  });

  it('reads back an empty list', async () => {
    expect(await read([])).toEqual([]);
  });
});
