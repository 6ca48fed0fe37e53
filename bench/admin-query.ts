import pg from 'pg';

/** One statement on its own connection to `connectionString` (create or drop a bench's database). */
export async function adminQuery(connectionString: string | undefined, text: string) {
  const c = new pg.Client({ connectionString });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}
