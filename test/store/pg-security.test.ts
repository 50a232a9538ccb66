/**
 * The PostgreSQL paths of encryption at rest and the audit trail (issue #18): the wrapped data
 * keys (biostation.data_keys), templates encrypted in the tenant schemas, `keys rotate`'s re-wrap,
 * `keys migrate` over rows stored in clear, and the append-only audit_log. Runs when
 * BIOSTATION_TEST_DATABASE_URL names a server (.ci/run starts one), as the other PostgreSQL tests.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { TEMPLATE_MAGIC } from '../../src/store/encryption/encrypting-store.js';
import { masterKeyOf } from '../../src/store/encryption/master-key.js';
import { encryptPlainTemplates } from '../../src/store/encryption/migrate-plain.js';
import { tenantSchema } from '../../src/store/postgres/schema.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

describe.skipIf(!testDatabaseUrl)('PostgreSQL: data keys, encrypted templates, keys migrate, audit log', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: pg.Client;
  const first = masterKeyOf(randomBytes(32));
  const second = masterKeyOf(randomBytes(32));
  const open = (provided?: typeof first): Promise<Store> =>
    openStore({ kind: 'postgres', dataDir: '/nonexistent', databaseUrl: db.url, ...(provided ? { encryption: { file: '/nonexistent/master.key', provided } } : {}) });

  beforeAll(async () => {
    db = await freshDatabase();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('stores data keys wrapped, encrypts templates in the tenant schema, and re-wraps under a new master key', async () => {
    const app = randomUUID();
    const store = await open(first);
    const key = await store.keyring!.dataKey(app);
    const tenant = await store.tenants.forApplication(app);
    expect(await tenant.faces.create('alice', [{ data: Buffer.from('T:pgplainmarker-alice') }], new Date().toISOString())).toBe(true);
    expect(Buffer.from((await tenant.faces.find('alice'))!.templates[0].data).toString()).toBe('T:pgplainmarker-alice');

    const { rows: keys } = await sql.query('SELECT master_key_id, wrapped FROM biostation.data_keys WHERE application_id = $1', [app]);
    expect(keys).toHaveLength(1);
    expect(keys[0].master_key_id).toBe(first.id);
    expect(Buffer.from(keys[0].wrapped).includes(key)).toBe(false);
    const { rows: templates } = await sql.query(`SELECT data FROM ${tenantSchema(app)}.templates`);
    expect(Buffer.from(templates[0].data).subarray(0, 4)).toEqual(TEMPLATE_MAGIC);
    expect(Buffer.from(templates[0].data).includes(Buffer.from('pgplainmarker'))).toBe(false);

    expect(await store.keyring!.rewrapAll(second)).toBeGreaterThanOrEqual(1);
    await store.close();
    const rewrapped = await open(second);
    expect(await rewrapped.keyring!.dataKey(app)).toEqual(key);
    expect(Buffer.from((await (await rewrapped.tenants.forApplication(app)).faces.find('alice'))!.templates[0].data).toString()).toBe('T:pgplainmarker-alice');
    await rewrapped.close();
    const old = await open(first);
    await expect(old.keyring!.dataKey(app)).rejects.toThrow();
    await old.close();
  });

  it('keys migrate encrypts rows stored in clear, in batches, idempotently', async () => {
    const app = randomUUID();
    const plain = await open();
    await plain.applications.insert({
      id: app, name: 'legacy', key: `k-${app}`, secretHash: 'x', createdAt: new Date().toISOString(), disabledAt: null, faceThreshold: null, fingerThreshold: null,
    });
    const raw = await plain.tenants.forApplication(app);
    for (let i = 0; i < 12; i++) await raw.fingers.appendTemplates(`p${i}`, [{ data: Buffer.from(`T:pgclearrow${i}`), position: 'UNKNOWN' }], new Date().toISOString());
    await plain.close();

    const store = await open(second);
    const result = await encryptPlainTemplates(store, { batch: 5 });
    expect(result).toMatchObject({ encrypted: 12, raced: 0 });
    const { rows } = await sql.query(`SELECT data FROM ${tenantSchema(app)}.templates`);
    expect(rows).toHaveLength(12);
    for (const r of rows) expect(Buffer.from(r.data).subarray(0, 4)).toEqual(TEMPLATE_MAGIC);
    const person = await (await store.tenants.forApplication(app)).fingers.find('p7');
    expect(Buffer.from(person!.templates[0].data).toString()).toBe('T:pgclearrow7');
    expect((await encryptPlainTemplates(store)).encrypted).toBe(0);
    await store.close();
  });

  it('appends and queries the audit log, which refuses updates and deletes', async () => {
    const store = await open(first);
    const at = (m: number) => new Date(Date.UTC(2026, 10, 24, 12, m)).toISOString();
    await store.audit.append([
      { at: at(0), requestId: 'r1', applicationId: 'a1', operation: 'face.enroll', extId: 'h1', httpStatus: 200, resultCode: 1000 },
      { at: at(5), requestId: 'r2', applicationId: 'a2', operation: 'finger.verify', extId: null, httpStatus: 404, resultCode: 1027 },
      { at: at(10), requestId: 'r3', applicationId: 'a1', operation: 'face.identify', extId: 'h3', httpStatus: 200, resultCode: 1008 },
    ]);
    expect((await store.audit.query({ since: at(0) })).map((e) => e.requestId)).toEqual(['r1', 'r2', 'r3']);
    expect((await store.audit.query({ since: at(1), until: at(10) })).map((e) => e.requestId)).toEqual(['r2']);
    expect((await store.audit.query({ applicationId: 'a1', limit: 1 })).map((e) => e.requestId)).toEqual(['r1']);
    expect((await store.audit.query({ since: at(0) }))[1]).toMatchObject({ operation: 'finger.verify', extId: null, httpStatus: 404, resultCode: 1027 });
    await expect(sql.query("UPDATE biostation.audit_log SET operation = 'x'")).rejects.toThrow(/append-only/);
    await expect(sql.query('DELETE FROM biostation.audit_log')).rejects.toThrow(/append-only/);
    expect(await store.audit.query({})).toHaveLength(3);
    await store.close();
  });
});
