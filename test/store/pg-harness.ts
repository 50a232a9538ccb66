import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL for tests: BIOSTATION_TEST_DATABASE_URL names a server and a role allowed to create
 * databases (.ci/run starts one). Each suite gets a fresh database, dropped afterwards.
 */
export const testDatabaseUrl = process.env.BIOSTATION_TEST_DATABASE_URL;
if (!testDatabaseUrl) console.warn('PostgreSQL store tests skipped: set BIOSTATION_TEST_DATABASE_URL (e.g. postgres://biostation:biostation@127.0.0.1:5432/biostation_test)');

export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  const name = `biostation_t_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: testDatabaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
