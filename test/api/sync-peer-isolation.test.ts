import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlitePeerListStore } from '../../src/store/sqlite/peer-list.js';
import { faceBody, fakeFaceEngine } from './fakes.js';
import { startTestStation, type TestStation } from './harness.js';

/**
 * Review finding: admin-added sync peers were stored under the application's NAME, and names are
 * not unique. A peer added for application K1 must stay K1's: another application of the same
 * name neither lists, deletes nor syncs with it (src/sync/peer-registry.ts, admin-peers.ts, sync.ts, sync/cli.ts).
 */
describe('sync peers of two applications with the same name', () => {
  let field: TestStation;
  let central: TestStation;
  let fieldApp: Awaited<ReturnType<TestStation['application']>>;
  let k1: Awaited<ReturnType<TestStation['application']>>;
  let k2: Awaited<ReturnType<TestStation['application']>>;
  let session: string;
  const admin = (method: string, p: string, json?: unknown) => central.request(method, `/api/v1/admin${p}`, { token: session, json });
  const peersOf = (key: string) => `/applications/${key}/sync-peers`;
  const cli = async (...args: string[]) => {
    const child = spawn(process.execPath, ['src/bin/biostation.mjs', 'sync', 'pull', ...args, '--json'], {
      env: { ...process.env, BIOSTATION_DATA_DIR: central.dataDir, BIOSTATION_ENGINES: 'none', BIOSTATION_LOG_LEVEL: 'warn' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, out };
  };

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine });
    fieldApp = await field.application('field');
    await field.request('POST', '/api/v1/services/face/enroll/ana', { token: fieldApp.token, json: faceBody('ana') });
    central = await startTestStation({ faceEngine: fakeFaceEngine });
    k1 = await central.application('x');
    k2 = await central.application('x');
    session = (await central.request('POST', '/api/v1/admin/session', { json: { secret: central.station.stationAdminSecret } })).body.token;
    const added = await admin('POST', peersOf(k1.key), { name: 'field', url: field.url, key: fieldApp.key, secret: fieldApp.secret });
    expect(added.status).toBe(200);
  });
  afterAll(async () => {
    await central?.close();
    await field?.close();
  });

  it('is listed for K1 only (admin list and /sync/status)', async () => {
    expect((await admin('GET', peersOf(k1.key))).body.peers.map((p: { name: string }) => p.name)).toEqual(['field']);
    expect((await admin('GET', peersOf(k2.key))).body.peers).toEqual([]);
    expect((await central.request('GET', '/api/v1/sync/status', { token: k1.token })).body.peers.map((p: { name: string }) => p.name)).toEqual(['field']);
    expect((await central.request('GET', '/api/v1/sync/status', { token: k2.token })).body.peers).toEqual([]);
  });

  it("K2's token cannot pull or push with K1's peer (400, nothing synced)", async () => {
    for (const direction of ['pull', 'push']) {
      for (const json of [{ peer: 'field' }, {}]) {
        const res = await central.request('POST', `/api/v1/sync/${direction}`, { token: k2.token, json });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_REQUEST');
      }
    }
    expect((await central.request('GET', '/api/v1/services/face/count', { token: k2.token })).body.count).toBe(0);
    expect((await central.request('GET', '/api/v1/sync/status', { token: k2.token })).body.history).toEqual([]);
  });

  it("K2's admin call does not delete K1's peer", async () => {
    const res = await admin('DELETE', `${peersOf(k2.key)}/field`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PEER_NOT_FOUND');
    expect((await admin('GET', peersOf(k1.key))).body.peers.map((p: { name: string }) => p.name)).toEqual(['field']);
  });

  it("K1's token syncs with it", async () => {
    const res = await central.request('POST', '/api/v1/sync/pull', { token: k1.token, json: { peer: 'field' } });
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ peerUrl: field.url, error: null });
    expect((await central.request('GET', '/api/v1/services/face/count', { token: k1.token })).body.count).toBe(1);
  });

  it('the sync CLI refuses --peer with another --app (by name or key), and an --app name two applications share', async () => {
    await central.application('other');
    for (const app of ['other', k2.key]) {
      const r = await cli('--peer', 'field', '--app', app);
      expect(r.code, r.out).toBe(1);
      expect(JSON.parse(r.out)).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringContaining('belongs to application x') });
    }
    const shared = await cli('--peer', 'field', '--app', 'x');
    expect(shared.code, shared.out).toBe(1);
    expect(JSON.parse(shared.out).message).toContain('several enabled applications are named x');
    const mine = await cli('--peer', 'field', '--app', k1.key);
    expect(mine.code, mine.out).toBe(0);
    expect(JSON.parse(mine.out)).toMatchObject({ app: 'x', peerUrl: field.url, error: null });
  }, 60_000);

  it('a corrupt stored peer list: lists and /sync/status answer (empty), adding is refused with PEER_FILE_UNREADABLE', async () => {
    const registryDb = new SqlitePeerListStore(path.join(central.dataDir, 'station.db'));
    expect(await registryDb.write('{broken', (await registryDb.read()).version)).toBe(true);
    registryDb.close();
    expect((await admin('GET', peersOf(k1.key))).body).toEqual({ peers: [] });
    const status = await central.request('GET', '/api/v1/sync/status', { token: k1.token });
    expect(status.status).toBe(200);
    expect(status.body.peers).toEqual([]);
    const pull = await central.request('POST', '/api/v1/sync/pull', { token: k1.token, json: { peer: 'field' } });
    expect(pull.status).toBe(400);
    const add = await admin('POST', peersOf(k1.key), { name: 'again', url: field.url, key: fieldApp.key, secret: fieldApp.secret });
    expect(add.status).toBe(409);
    expect(add.body.code).toBe('PEER_FILE_UNREADABLE');
  });
});
