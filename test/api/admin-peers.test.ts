import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlitePeerListStore } from '../../src/store/sqlite/peer-list.js';
import { SyncPeerRegistry } from '../../src/sync/peer-registry.js';
import { faceBody, fakeFaceEngine, fakeFingerEngine } from './fakes.js';
import { startTestStation, type TestStation } from './harness.js';

/**
 * Sync peers added from the kiosk's Admin screen (src/http/routes/admin-peers.ts,
 * src/sync/peer-registry.ts): station-admin session only, validated, persisted in the data
 * directory (0600), never echoing the secret, and used by POST /api/v1/sync/pull like a configured one.
 */
describe('station-admin API: sync peers of an application', () => {
  let field: TestStation;
  let central: TestStation;
  let fieldApp: Awaited<ReturnType<TestStation['application']>>;
  let centralApp: Awaited<ReturnType<TestStation['application']>>;
  let session: string;
  const admin = (method: string, p: string, json?: unknown, token = session) => central.request(method, `/api/v1/admin${p}`, { token, json });
  const peers = () => `/applications/${centralApp.key}/sync-peers`;

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    fieldApp = await field.application('field-office');
    central = await startTestStation({
      faceEngine: fakeFaceEngine,
      fingerEngine: fakeFingerEngine,
      config: { syncPeers: [{ name: 'hq', url: 'https://hq.example:8443', key: 'bs_hq', secret: 'configured-secret', app: 'central' }] },
    });
    centralApp = await central.application('central');
    session = (await admin('POST', '/session', { secret: central.station.stationAdminSecret }, '')).body.token;
  });
  afterAll(async () => {
    await field?.close();
    await central?.close();
  });

  it('needs a station-admin session: no token and an application token get 401', async () => {
    expect((await admin('GET', peers(), undefined, '')).status).toBe(401);
    const withAppToken = await admin('POST', peers(), { name: 'x', url: field.url, key: fieldApp.key, secret: fieldApp.secret }, centralApp.token);
    expect(withAppToken.status).toBe(401);
    expect(withAppToken.body.code).toBe('UNAUTHORIZED');
  });

  it('refuses a bad name, a non-https remote URL, a URL with a user or query, an empty credential, an unknown application, an unknown field', async () => {
    const add = (body: Record<string, unknown>, p = peers()) => admin('POST', p, { name: 'field', url: field.url, key: fieldApp.key, secret: fieldApp.secret, ...body });
    const expectCode = async (res: Promise<{ status: number; body: any }>, status: number, code?: string) => {
      const r = await res;
      expect(r.status).toBe(status);
      if (code) expect(r.body.code).toBe(code);
      expect(JSON.stringify(r.body)).not.toContain(fieldApp.secret);
    };
    await expectCode(add({ name: 'field office' }), 400, 'INVALID_PEER_NAME');
    await expectCode(add({ name: '' }), 400, 'INVALID_PEER_NAME');
    await expectCode(add({ url: 'http://10.0.0.7:8080' }), 400, 'INVALID_PEER_URL');
    await expectCode(add({ url: 'https://user:pw@hq.example' }), 400, 'INVALID_PEER_URL');
    await expectCode(add({ url: 'https://hq.example/?x=1' }), 400, 'INVALID_PEER_URL');
    await expectCode(add({ url: 'ftp://127.0.0.1/' }), 400, 'INVALID_PEER_URL');
    await expectCode(add({ url: 'not a url' }), 400, 'INVALID_PEER_URL');
    await expectCode(add({ secret: '   ' }), 400, 'INVALID_PEER_CREDENTIAL');
    await expectCode(add({}, '/applications/bs_missing/sync-peers'), 404, 'APPLICATION_NOT_FOUND');
    await expectCode(add({ peerUrl: 'x' }), 400);
    await expectCode(add({ name: 'hq' }), 409, 'PEER_EXISTS'); // the configured peer's name
    expect((await admin('GET', peers())).body.peers.map((p: { name: string }) => p.name)).toEqual(['hq']);
  });

  it('adds a peer (https, or http on loopback), lists it beside the configured one, never returns a secret, keeps it sealed in the station registry', async () => {
    const added = await admin('POST', peers(), { name: 'field', url: `${field.url}/`, key: fieldApp.key, secret: fieldApp.secret });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ peer: { name: 'field', url: field.url, key: fieldApp.key, source: 'admin' } });
    expect((await admin('POST', peers(), { name: 'remote', url: 'https://10.0.0.7:8443/station', key: 'bs_r', secret: 'remote-secret' })).status).toBe(200);
    expect((await admin('POST', peers(), { name: 'field', url: field.url, key: fieldApp.key, secret: fieldApp.secret })).body.code).toBe('PEER_EXISTS');

    const list = await admin('GET', peers());
    expect(list.body.peers).toEqual([
      { name: 'hq', url: 'https://hq.example:8443', key: 'bs_hq', source: 'config' },
      { name: 'field', url: field.url, key: fieldApp.key, source: 'admin' },
      { name: 'remote', url: 'https://10.0.0.7:8443/station', key: 'bs_r', source: 'admin' },
    ]);
    for (const s of [fieldApp.secret, 'remote-secret', 'configured-secret']) expect(JSON.stringify(list.body)).not.toContain(s);

    // kept in the station registry (station.db, mode 0600), not in a file of the data directory
    expect(existsSync(path.join(central.dataDir, 'sync-peers.json'))).toBe(false);
    expect(statSync(path.join(central.dataDir, 'station.db')).mode & 0o777).toBe(0o600);
    const registryDb = new SqlitePeerListStore(path.join(central.dataDir, 'station.db'));
    const text = (await registryDb.read()).body!;
    // stored under the application's KEY (names are not unique)
    expect(JSON.parse(text).peers.map((p: { name: string; appKey: string }) => [p.appKey, p.name])).toEqual([[centralApp.key, 'field'], [centralApp.key, 'remote']]);
    // the secrets are sealed at rest (src/sync/peer-secrets.ts), never stored in clear
    for (const s of [fieldApp.secret, 'remote-secret']) expect(text).not.toContain(s);
    expect(JSON.parse(text).peers.every((p: { secret?: string; sealedSecret?: string }) => p.secret === undefined && p.sealedSecret?.startsWith('v1:'))).toBe(true);
    // what a restarted station (or the sync CLI, or another API node) lists
    expect((await new SyncPeerRegistry(registryDb, []).viewsOf([{ key: centralApp.key, name: 'central' }], centralApp.key)).map((p) => [p.appKey, p.name, p.source])).toEqual([[centralApp.key, 'field', 'admin'], [centralApp.key, 'remote', 'admin']]);
    registryDb.close();
    // another application does not see them
    const other = await central.application('other');
    expect((await admin('GET', `/applications/${other.key}/sync-peers`)).body.peers).toEqual([]);
  });

  it('the application syncs with the added peer by name (POST /api/v1/sync/pull), and its status lists it', async () => {
    const res = await central.request('POST', '/api/v1/sync/pull', { token: centralApp.token, json: { peer: 'field' } });
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ peerUrl: field.url, error: null });
    const status = await central.request('GET', '/api/v1/sync/status', { token: centralApp.token });
    expect(status.body.peers.map((p: { name: string }) => p.name)).toEqual(['hq', 'field', 'remote']);
  });

  it('the sync CLI finds the added peer by name (--peer) on the data directory', async () => {
    const child = spawn(process.execPath, ['src/bin/biostation.mjs', 'sync', 'pull', '--peer', 'field', '--json'], {
      env: { ...process.env, BIOSTATION_DATA_DIR: central.dataDir, BIOSTATION_ENGINES: 'none', BIOSTATION_LOG_LEVEL: 'warn' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err + out).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ app: 'central', peerUrl: field.url, error: null });
  }, 60_000);

  it('removes an added peer; a configured one stays (409), an unknown one is 404', async () => {
    expect((await admin('DELETE', `${peers()}/hq`)).body).toMatchObject({ code: 'PEER_CONFIGURED' });
    expect((await admin('DELETE', `${peers()}/field`)).body).toEqual({ removed: true });
    const again = await admin('DELETE', `${peers()}/field`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('PEER_NOT_FOUND');
    expect((await admin('GET', peers())).body.peers.map((p: { name: string }) => p.name)).toEqual(['hq', 'remote']);
    expect((await central.request('POST', '/api/v1/sync/pull', { token: centralApp.token, json: { peer: 'field' } })).status).toBe(400);
  });
});

/** The background schedule (BIOSTATION_SYNC_INTERVAL_S) syncs with a peer added from the Admin screen, without a restart. */
describe('scheduled sync with a peer added by the station admin', () => {
  let field: TestStation;
  let central: TestStation;

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine });
    central = await startTestStation({ faceEngine: fakeFaceEngine, config: { syncIntervalSeconds: 1 } });
  });
  afterAll(async () => {
    await central?.close();
    await field?.close();
  });

  it('pulls the peer\'s enrollment in the background once the peer is added', async () => {
    const fieldApp = await field.application('field');
    const centralApp = await central.application('central');
    await field.request('POST', '/api/v1/services/face/enroll/ana', { token: fieldApp.token, json: faceBody('ana') });
    const session = (await central.request('POST', '/api/v1/admin/session', { json: { secret: central.station.stationAdminSecret } })).body.token;
    const added = await central.request('POST', `/api/v1/admin/applications/${centralApp.key}/sync-peers`, { token: session, json: { name: 'field', url: field.url, key: fieldApp.key, secret: fieldApp.secret } });
    expect(added.status).toBe(200);
    // wait for a round (no timing asserted: the loop only bounds the wait)
    let count = 0;
    for (let i = 0; i < 100 && count < 1; i++) {
      await new Promise((r) => setTimeout(r, 200));
      count = (await central.request('GET', '/api/v1/services/face/count', { token: centralApp.token })).body.count;
    }
    expect(count).toBe(1);
    expect((await central.request('GET', '/api/v1/sync/status', { token: centralApp.token })).body.lastSync).toMatchObject({ peerUrl: field.url, error: null });
  });
});
