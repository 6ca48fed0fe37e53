import { isUniqueViolation } from '@medlocker/db';
import { sql } from 'kysely';
import { columnsOf, type Db } from './repository.ts';
import type { PatientValues } from './rules.ts';

/**
 * The SQL of a batch import of patients (`batchUpsertPatients`): one statement per batch. The rows it
 * inserts or changes are marked `search_pending`: the trigram index skips them (its trigrams were ~90% of
 * the statement) and the job `patients.searchIndex` indexes them after the import (search-index-repository.ts).
 */

const ARRAY_ESCAPES = /["\\]/g;
/** A backslash in JSON text that escapes something other than `"` or `\` (a control character, \uXXXX). */
const OTHER_JSON_ESCAPE = /\\[^"\\]/;

/**
 * A PostgreSQL text[] literal: every element double-quoted (so NULL, braces, commas and blanks inside
 * are plain text), `"` and `\` escaped with a backslash, null as NULL. JSON.stringify writes exactly
 * that (`null` is NULL to PostgreSQL too) as long as it escaped nothing else: a control character or an
 * unpaired surrogate, which JSON writes as `\n` or `\uXXXX` and an array literal would read as `n` or
 * `uXXXX`; then, or where it cannot tell (a backslash before another character), element by element.
 */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  const json = JSON.stringify(values);
  if (!OTHER_JSON_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out += `${i > 0 ? ',' : ''}${v === null || v === undefined ? 'NULL' : `"${v.replace(ARRAY_ESCAPES, '\\$&')}"`}`;
  }
  return `${out}}`;
}

/**
 * One row of an upsert batch, already checked; `ord` is its index in the request, `digest` the row as
 * sent (`import_digest`, kept by the rows it writes or finds the same: see importedUnchanged).
 */
export type UpsertRow = PatientValues & { ord: number; id: string; digest: string };

export type UpsertResult = { ord: number; id: string | null; status: 'created' | 'updated' | 'unchanged' };

const CHANGED_COLUMNS = [
  'given_name',
  'family_name',
  'full_name',
  'date_of_birth',
  'email',
  'mobile_number',
  'address_line1',
  'address_line2',
  'address_line3',
  'post_town',
  'postcode',
] as const;

/** The columns an import writes as the file has them: all but the name parts (see storedNameParts). */
const DETAIL_COLUMNS = CHANGED_COLUMNS.slice(2);

/**
 * SQL for the given and family names an import stores over a current patient `stored` from the row
 * `sent` (two columns, given_name and family_name): namePartsOnUpdate's rule, so a file mapped by Full
 * Name keeps the parts a Given/Family file or an edit stored (an unchanged full name keeps both, and
 * importing the same file again changes nothing), and search by surname still finds the patient.
 * patients.test.ts holds the two to the same answers.
 */
export function storedNameParts(stored: string, sent: string) {
  const [g, f, n] = [`${stored}.given_name`, `${stored}.family_name`, `${sent}.full_name`];
  const asSent = `(${sent}.given_name <> '' or ${sent}.family_name <> '') or (${g} = '' and ${f} = '')`;
  const endsWithFamily = `${f} <> '' and length(${n}) > length(${f}) + 1 and lower(right(${n}, length(${f}) + 1)) = lower(' ' || ${f})`;
  const startsWithGiven = `${g} <> '' and length(${n}) > length(${g}) + 1 and lower(left(${n}, length(${g}) + 1)) = lower(${g} || ' ')`;
  const part = (sentPart: string, same: string, afterGiven: string, beforeFamily: string) =>
    sql.raw(`case when ${asSent} then ${sent}.${sentPart} when ${n} = ${stored}.full_name then ${same}
      when ${endsWithFamily} then ${beforeFamily} when ${startsWithGiven} then ${afterGiven} else ${sent}.${sentPart} end`);
  return {
    given: part('given_name', g, `left(${n}, length(${g}))`, `btrim(left(${n}, -(length(${f}) + 1)))`),
    family: part('family_name', f, `btrim(substr(${n}, length(${g}) + 2))`, `right(${n}, length(${f}))`),
  };
}

/**
 * SET clauses that keep a patient's WhatsApp opt-in only while the import leaves their mobile as it was
 * (`stored` the row before, `sent` the imported one): a new number clears it, as an edit does.
 */
const keptOptIn = (stored: string, sent: string) => {
  const same = `${stored}.mobile_number is not distinct from ${sent}.mobile_number`;
  return sql.raw(
    ['whatsapp_opt_in_at', 'whatsapp_opt_in_mobile']
      .map((c) => `${c} = case when ${same} then ${stored}.${c} end`)
      .join(', '),
  );
};

/** A patient's columns as an import writes them: the display id and the detail columns (see columnsOf). */
const ROW_COLUMNS = ['display_id', ...CHANGED_COLUMNS] as const;

/**
 * Inserts or updates a batch of patients keyed on (business, display id) among current patients, in ONE
 * statement: the rows travel as one array parameter per column, `on conflict … do update … where` writes only rows
 * whose fields differ (so a second import of the same file writes nothing), and each row's outcome is
 * read from what was returned and what was already identical. The batch is audited by one
 * `patient.import` entry listing the ids created and updated (at `now`, the patients' `created` /
 * `updated` time, so a patient's import entry is found by business and time). Display ids must be
 * unique in `rows`.
 */
type UpsertQuery = {
  businessId: string;
  rows: UpsertRow[];
  now: number;
  auditId: string;
  actor: { userId: string | null; display: string | null; ip: string | null; requestId: string | null };
};

export async function upsertPatients(
  db: Db,
  q: UpsertQuery,
  /** `settledOnly`: always the `on conflict` statement (tests hold both to the same outcomes). */
  options: { settledOnly?: boolean } = {},
): Promise<UpsertResult[]> {
  if (q.rows.length === 0) return [];
  const parts = upsertParts(q);
  if (!options.settledOnly && !db.isTransaction) {
    // Inside a transaction a failed statement would abort it: there the batch is settled at once.
    try {
      const { rows } = await fastUpsert(q, parts).execute(db);
      return fastOutcomes(q.rows, rows[0]?.outcome ?? '[[],[],[]]');
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const { rows } = await settledUpsert(q, parts).execute(db);
  const outcome = JSON.parse(rows[0]?.outcome ?? '[]') as [number, string | null, boolean | null][];
  return outcome.map(([ord, id, inserted]) => ({
    ord,
    id,
    status: inserted === null ? 'unchanged' : inserted ? 'created' : 'updated',
  }));
}

type UpsertParts = ReturnType<typeof upsertParts>;

/**
 * The business in a per-row lookup of current patients, as a value the planner cannot see (`(select $1)`,
 * computed once): it then plans for a business of average size and probes the unique (business, display
 * id) index for each row. Given the constant, a business the table statistics saw with no patients (one
 * that joined since the last analyse) is estimated at one row, any index on business_id looks as good,
 * and PostgreSQL chose (business_id, created), reading every one of the business's patients again for
 * each row sent: an import into a new business grew slower with each batch (100 ms to 12 s a batch of
 * 1,024 by the twentieth, docs/PERFORMANCE.md).
 */
const businessParam = (businessId: string) => sql`(select ${businessId}::text)`;

/** What both statements share: the input rows, their plain insert, and the import's audit entry. */
function upsertParts(q: UpsertQuery) {
  // The rows travel as one array per column (unnest), cheaper to send and to read than json objects;
  // each array is written as its literal text here, which costs less than the drivers' own encoding.
  const values = q.rows.map(columnsOf);
  const input = sql.join([
    sql`${`{${q.rows.map((r) => r.ord).join(',')}}`}::int[]`,
    sql`${textArrayLiteral(q.rows.map((r) => r.id))}::text[]`,
    sql`${textArrayLiteral(q.rows.map((r) => r.digest))}::text[]`,
    ...ROW_COLUMNS.map((c) => sql`${textArrayLiteral(values.map((v) => v[c]))}::text[]`),
  ]);
  const rowColumns = sql.raw(ROW_COLUMNS.join(', '));
  // Inserts the input rows `i` as new patients; each statement below adds its own condition.
  const insertInput = sql`
      insert into patients as p (id, business_id, ${rowColumns}, created, updated, search_pending, import_digest)
      select i.id, ${q.businessId}, ${sql.raw(ROW_COLUMNS.map((c) => `i.${c}`).join(', '))}, ${q.now}::bigint, ${q.now}::bigint,
        true, i.digest
      from input i`;
  const audited = sql`
    audited as (
      insert into audit_log (id, at, actor_user_id, actor_display, action, entity_type, entity_id, business_id, ip,
        request_id, details)
      select ${q.auditId}, ${q.now}::bigint, ${q.actor.userId}, ${q.actor.display}, 'patient.import', 'patient', null,
        ${q.businessId}, ${q.actor.ip}, ${q.actor.requestId},
        jsonb_build_object(
          'via', 'batchUpsertPatients',
          'created', coalesce(jsonb_agg(w.id) filter (where w.inserted), '[]'::jsonb),
          'updated', coalesce(jsonb_agg(w.id) filter (where not w.inserted), '[]'::jsonb))
      from written w
      having count(*) > 0
    )`;
  const unnested = sql`
    input as (
      select * from unnest(${input}) as x(ord, id, digest, ${rowColumns})
    )`;
  return { insertInput, audited, unnested };
}

const changedColumns = (alias: string) => sql.raw(CHANGED_COLUMNS.map((c) => `${alias}.${c}`).join(', '));
const detailColumns = (alias: string) => sql.raw(DETAIL_COLUMNS.map((c) => `${alias}.${c}`).join(', '));

/**
 * The usual case, in one statement: the current patients with these display ids are looked up (one
 * index probe each); the others are inserted plainly, the different ones updated, the identical ones
 * left alone. A plain insert costs about half of an `on conflict` one. One row comes back: three json
 * arrays (the ids added, the ids changed, and [ord, id] of each current patient), which say every row's
 * outcome without joining the input again (sorting 1024 display ids three times was a sixth of the
 * statement on PGlite).
 */
/** The batch's statement as upsertPatients sends it first (tests read its plan). */
export const fastUpsertStatement = (q: UpsertQuery) => fastUpsert(q, upsertParts(q));

function fastUpsert(q: UpsertQuery, { insertInput, audited, unnested }: UpsertParts) {
  const names = storedNameParts('c', 'i');
  return sql<{ outcome: string }>`
    with ${unnested},
    current as (
      select i.ord, i.display_id, c.id, c.same, c.import_digest, c.given_name, c.family_name from input i
      cross join lateral (
        select c.id, c.import_digest, n.given_name, n.family_name,
          (${changedColumns('c')}) is not distinct from (n.given_name, n.family_name, ${detailColumns('i')}) as same
        from patients c
        cross join lateral (select ${names.given} as given_name, ${names.family} as family_name) n
        where c.business_id = ${businessParam(q.businessId)} and c.display_id = i.display_id and c.deleted_at is null
        limit 1
      ) c
    ),
    added as (${insertInput}
      where not exists (select 1 from current k where k.display_id = i.display_id)
      returning p.id
    ),
    -- Both updates name their rows' ids as an array as well as by the join, and ask for a current patient
    -- as num_nulls(deleted_at) = 1, which is deleted_at is null in a form no partial index's predicate
    -- matches: without table statistics (PGlite has no autovacuum; a table before the search job analyses
    -- it) the planner read every current patient through the (business, display id) key, whose predicate
    -- is deleted_at is null, and hashed them for each batch (356 ms a batch at 100,000 on PGlite) instead
    -- of probing the batch's ids (13 ms; import-plan.test.ts).
    changed as (
      update patients p set given_name = k.given_name, family_name = k.family_name,
        ${sql.raw(DETAIL_COLUMNS.map((c) => `${c} = i.${c}`).join(', '))}, updated = ${q.now}::bigint,
        search_pending = true, import_digest = i.digest, ${keptOptIn('p', 'i')}
      from current k join input i on i.display_id = k.display_id
      where p.id = k.id and p.id = any(array(select id from current where not same)) and not k.same
        and num_nulls(p.deleted_at) = 1
      returning p.id
    ),
    -- The same as stored, but sent differently (or before digests were kept): the digest alone, and only
    -- while the row is still the same (checked on the row as it is when locked: an edit that committed
    -- after this statement's snapshot keeps its null digest, so the next import compares it).
    marked as (
      update patients p set import_digest = i.digest
      from current k join input i on i.display_id = k.display_id
      where p.id = k.id and p.id = any(array(select id from current where same)) and k.same
        and k.import_digest is distinct from i.digest and num_nulls(p.deleted_at) = 1
        and (${changedColumns('p')}) is not distinct from (k.given_name, k.family_name, ${detailColumns('i')})
        and p.display_id = i.display_id
    ),
    written as (
      select id, true as inserted from added union all select id, false from changed
    ),
    ${audited}
    select json_build_array(
      (select coalesce(json_agg(a.id), '[]') from added a),
      (select coalesce(json_agg(ch.id), '[]') from changed ch),
      (select coalesce(json_agg(json_build_array(k.ord, k.id)), '[]') from current k))::text as outcome
  `;
}

/**
 * When another import added one of these display ids after the fast statement's snapshot, the plain
 * insert meets the unique key: the batch is written again with `on conflict`, which settles it.
 */
function settledUpsert(q: UpsertQuery, { insertInput, audited, unnested }: UpsertParts) {
  const onConflictNames = storedNameParts('p', 'excluded');
  return sql<{ outcome: string | null }>`
    with ${unnested},
    up as (${insertInput}
      on conflict (business_id, display_id) where deleted_at is null
      do update set given_name = ${onConflictNames.given}, family_name = ${onConflictNames.family},
        ${sql.raw(DETAIL_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', '))}, updated = excluded.updated,
        search_pending = true, import_digest = excluded.import_digest, ${keptOptIn('p', 'excluded')}
      where (${changedColumns('p')}) is distinct from
        (${onConflictNames.given}, ${onConflictNames.family}, ${detailColumns('excluded')})
      returning p.id, p.display_id, (p.xmax = 0) as inserted
    ),
    written as (select id, inserted from up),
    ${audited}
    select json_agg(json_build_array(i.ord, coalesce(up.id, (
        select c.id from patients c
        where c.business_id = ${businessParam(q.businessId)} and c.display_id = i.display_id and c.deleted_at is null
      )), up.inserted))::text as outcome
    from input i
    left join up on up.display_id = i.display_id
  `;
}

function fastOutcomes(rows: UpsertRow[], outcome: string): UpsertResult[] {
  const [added, changed, current] = JSON.parse(outcome) as [string[], string[], [number, string][]];
  if (added.length + current.length !== rows.length) {
    throw new Error(`patients upsert: ${rows.length} rows in, ${added.length + current.length} outcomes out`);
  }
  const ordOf = new Map(rows.map((r) => [r.id, r.ord]));
  const updated = new Set(changed);
  const results: UpsertResult[] = added.map((id) => ({ ord: ordOf.get(id) as number, id, status: 'created' }));
  for (const [ord, id] of current) results.push({ ord, id, status: updated.has(id) ? 'updated' : 'unchanged' });
  return results;
}

/**
 * Of the rows an import sends (each by its display id as an earlier import stored it, and its digest),
 * the current patients an import last wrote from exactly that row, untouched since (migration 0056's
 * trigger clears the digest on any other change): for each row in order, that patient's id, or null.
 * Those rows are unchanged without their checks or the upsert. A display id stored otherwise than given
 * here is not found and goes the usual way.
 */
export async function importedUnchanged(
  db: Db,
  businessId: string,
  rows: { displayId: string; digest: string }[],
): Promise<(string | null)[]> {
  if (rows.length === 0) return [];
  const { rows: found } = await importedUnchangedStatement(businessId, rows).execute(db);
  return JSON.parse(found[0]?.ids ?? '[]') as (string | null)[];
}

/**
 * importedUnchanged's statement (tests read its plan). One probe of the unique (business, display id)
 * index a row, whatever the statistics say (a join was planned as a hash of every patient of the
 * business when the table had not been analysed: 16 ms a batch at 50,000 against 2 ms); one row back, a
 * json array in the rows' order (1,024 rows of their own cost the driver more).
 */
export const importedUnchangedStatement = (businessId: string, rows: { displayId: string; digest: string }[]) => sql<{
  ids: string;
}>`
    select json_agg((
      select c.id from patients c
      where c.business_id = ${businessParam(businessId)} and c.display_id = i.display_id and c.deleted_at is null
        and c.import_digest = i.digest
    ) order by i.ord)::text as ids
    from unnest(${textArrayLiteral(rows.map((r) => r.displayId))}::text[], ${textArrayLiteral(rows.map((r) => r.digest))}::text[])
      with ordinality as i(display_id, digest, ord)`;
