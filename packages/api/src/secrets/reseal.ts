import type { Database } from '@medlocker/db';
import { isUniqueViolation } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { KeyRing } from './key-ring.ts';
import { replaceSealed, type SealedValue, sealedNotUnder } from './reseal-repository.ts';
import { type SealedColumn, sealedColumns } from './sealed-columns.ts';
import { createSecretBox, currentSealPrefix, type SecretBox } from './secret-box.ts';

/** What one pass of the re-seal did: values sealed again under the first key, and values it could not. */
export type ResealOutcome = {
  /** The first key's id: what every value is sealed under once `left` is 0. */
  key: string;
  resealed: number;
  /** Values still under another key: sealed under a key the ring no longer holds, or an order's PIN
   * whose lookup under the first key is another live order's at its machine (kept until it is collected). */
  left: number;
  /** Each column with anything done or left: `name resealed/left`, comma-separated. */
  columns: string;
};

const BATCH = 200;

/**
 * Seals every secret kept sealed (secrets/sealed-columns.ts) again under the ring's first key, and keys
 * every PIN lookup under it: the job a key rotation runs (docs/OPERATIONS.md). Batches of 200 in key
 * order, each value replaced only if unchanged since it was read, so the api keeps serving and writing
 * throughout: a reader opens either form, since the ring holds both keys until the job has finished.
 */
export async function resealSecrets(
  db: Kysely<Database>,
  ring: KeyRing,
  onLeft: (column: string, id: string, reason: string) => void = () => {},
): Promise<ResealOutcome> {
  const box = createSecretBox(ring);
  const outcome: ResealOutcome = { key: ring.current.id, resealed: 0, left: 0, columns: '' };
  const columns: string[] = [];
  for (const column of sealedColumns) {
    const done = await resealColumn(db, ring, box, column, (id, reason) => onLeft(column.name, id, reason));
    outcome.resealed += done.resealed;
    outcome.left += done.left;
    if (done.resealed + done.left > 0) columns.push(`${column.name} ${done.resealed}/${done.left}`);
  }
  return { ...outcome, columns: columns.join(', ') };
}

async function resealColumn(
  db: Kysely<Database>,
  ring: KeyRing,
  box: SecretBox,
  column: SealedColumn,
  onLeft: (id: string, reason: string) => void,
): Promise<{ resealed: number; left: number }> {
  const prefix = currentSealPrefix(ring);
  let after = '';
  let resealed = 0;
  let left = 0;
  for (;;) {
    const batch = await sealedNotUnder(db, column, prefix, after, BATCH);
    for (const value of batch) {
      const outcome = await resealOne(db, ring, box, column, value);
      if (outcome === 'resealed') resealed++;
      else if (outcome !== 'changed') {
        left++;
        onLeft(value.id, outcome);
      }
    }
    if (batch.length < BATCH) return { resealed, left };
    after = batch[batch.length - 1]?.id ?? after;
  }
}

/** One value sealed again: 'resealed', 'changed' (written meanwhile), or why it is left. */
async function resealOne(
  db: Kysely<Database>,
  ring: KeyRing,
  box: SecretBox,
  column: SealedColumn,
  value: SealedValue,
): Promise<'resealed' | 'changed' | string> {
  const context = column.context(value.ref);
  let plain: string;
  try {
    plain = box.open(value.sealed, context);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const sealed = box.seal(plain, context);
  try {
    const lookup = column.pinLookup ? ring.mac('pin-lookup', plain) : undefined;
    return (await replaceSealed(db, column, value, sealed, lookup)) ? 'resealed' : 'changed';
  } catch (error) {
    if (column.pinLookup && isUniqueViolation(error)) {
      return 'its PIN is another live order’s at the machine under the new key; kept until one is collected';
    }
    throw error;
  }
}
