import type { Pool } from 'pg';

/**
 * A table that a store creates on first use (`CREATE ... IF NOT EXISTS`), made safe for several API
 * nodes starting together: PostgreSQL's IF NOT EXISTS is not atomic across sessions (two creators
 * race on the catalog: "duplicate key value violates unique constraint pg_type_typname_nsp_index"),
 * so `ddl` runs in one transaction under an advisory lock named `name`, and a later creator finds
 * the table. Returns the store's `init`: memoised; a failure is forgotten so the next call tries
 * again. @throws the DDL's error (to that call only)
 */
export function createOnce(pool: Pool, name: string, ddl: string): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= (async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`biostation:create:${name}`]);
        await client.query(ddl);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    })();
    ready.catch(() => (ready = undefined));
    return ready;
  };
}
