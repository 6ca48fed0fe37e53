/** The SQLSTATE of a database error (PostgreSQL and PGlite both set `code`), or undefined. */
const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;

/** A unique index refused the write (SQLSTATE 23505): a name, an id or a key already taken. */
export const isUniqueViolation = (error: unknown): boolean => codeOf(error) === '23505';

/**
 * A foreign key, or the statement-level triggers that stand for one (migrations 0007, 0008), refused a
 * row whose parent is not there (SQLSTATE 23503).
 */
export const isForeignKeyViolation = (error: unknown): boolean => codeOf(error) === '23503';

/**
 * Runs `write`; when a unique index refuses it (a name or id that a concurrent write took after the
 * check made before it), throws `taken()`, the caller's own refusal, instead of the database's error.
 */
export async function refuseDuplicate<T>(taken: () => Error, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw isUniqueViolation(error) ? taken() : error;
  }
}
