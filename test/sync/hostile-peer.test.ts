import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import type { TenantStore } from '../../src/store/types.js';
import { SyncService } from '../../src/sync/service.js';
import { formatHlc } from '../../src/sync/hlc.js';

/**
 * A hostile or broken peer (issue #18 finding 2): a loopback HTTP server whose dump answers are
 * chosen per test. Each case must end in a clear error with a stable code and leave the store as
 * it was; none may hang, grow memory without bound, or tell what listens where.
 */
const APP = '11111111-2222-3333-4444-555555555555';
const ok = (res: http.ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const version = (ms = Date.now(), stationId = 'hostile') => formatHlc({ ms, counter: 0, stationId });
const t64 = Buffer.from('T:x').toString('base64');
const face = (over: Record<string, unknown> = {}) => ({
  ExternalID: 'good', Templates: [{ Data: t64 }], CreatedAt: new Date().toISOString(), UpdatedAt: new Date().toISOString(), Version: version(), Seq: 1, ...over,
});
const page = (faces: unknown[], extra: Record<string, unknown> = {}) => ({ result: { total_entries: faces.length, faces, tombstones: [], next_since: faces.length, ...extra } });

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

describe('a hostile peer changes nothing and gets a clear error', () => {
  let dir: string;
  let store: Store;
  let tenant: TenantStore;
  let server: http.Server;
  let url: string;
  let dump: Handler = (_req, res) => ok(res, page([]));
  let token: Handler = (_req, res) => ok(res, { token: 't' });
  const noDocuments: Handler = (_req, res) => ok(res, { result: { total_entries: 0, documents: [], tombstones: [], next_since: 0 } });
  let documents: Handler = noDocuments;
  const hits: string[] = [];
  const sync = new SyncService(async () => () => undefined, { pageSize: 100, timeoutMs: 1500, maxResponseBytes: 1024 * 1024 });
  const peer = () => ({ url, key: 'k', secret: 'the-peer-secret' });
  const pullError = async () => {
    const e = await sync.pull(tenant, peer()).then(() => undefined, (err) => err);
    expect(e, 'the pull must fail').toBeDefined();
    return e as { code: string; message: string };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'biostation-hostile-'));
    store = await openStore({ kind: 'sqlite', dataDir: dir });
    tenant = await store.tenants.forApplication(APP);
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url?.startsWith('/api/v1/app-credentials/token')) return token(req, res);
      if (req.url?.startsWith('/api/v1/services/finger/dump')) return ok(res, { result: { total_entries: 0, fingers: [], tombstones: [], next_since: 0 } });
      if (req.url?.startsWith('/api/v1/sync/documents')) return documents(req, res);
      return dump(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    expect(await tenant.faces.count()).toBe(0);
    expect(await tenant.fingers.count()).toBe(0);
    token = (_req, res) => ok(res, { token: 't' });
    documents = noDocuments;
    expect(await tenant.documents!.count()).toBe(0);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a path', '../../etc/passwd'],
    ['5,000 characters', 'x'.repeat(5000)],
    ['empty', ''],
    ['markup', '<script>alert(1)</script>'],
    ['not a string', 42],
  ])('ext_id %s: refused by the API rule, and the good person in the same page is not written either', async (_name, extId) => {
    dump = (_req, res) => ok(res, page([face(), face({ ExternalID: extId, Seq: 2 })]));
    const e = await pullError();
    expect(e.code).toBe('PEER_INVALID_RESPONSE');
    expect(e.message).toMatch(/ext_id/);
  });

  it('a document for a person this station does not have, or one it deleted, is refused and never stored', async () => {
    const cnh = { kind: 'CNH', fields: { nome_completo: 'MALLORY' }, updatedAt: new Date().toISOString() };
    await tenant.faces.create('gone', [{ data: new Uint8Array([1]) }], new Date().toISOString());
    await tenant.faces.delete('gone');
    dump = (_req, res) => ok(res, page([]));
    documents = (_req, res) => ok(res, { result: { total_entries: 2, documents: [{ externalId: 'nobody', document: cnh, version: version(), seq: 1 }, { externalId: 'gone', document: cnh, version: version(Date.now() + 1000), seq: 2 }], tombstones: [], next_since: 2 } });
    const r = await sync.pull(tenant, peer());
    expect(r).toMatchObject({ pulled: 2, created: 0, updated: 0, skipped: 2, error: null });
    expect(await tenant.documents!.get('nobody')).toBeUndefined();
    expect(await tenant.documents!.get('gone')).toBeUndefined();
  });

  it.each([
    ['not a CNH', { kind: 'RG' }],
    ['a field name that is not lower-case words', { fields: { '../x': 'y' } }],
    ['41 fields', { fields: Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`f${i}`, 'x'])) }],
    ['a field of 10,000 characters', { fields: { nome: 'x'.repeat(10_000) } }],
    ['a photo check score that is text', { photoCheck: { found: true, score: '0.9' } }],
    ['no time', { updatedAt: undefined }],
  ])('a document with %s refuses the whole page; nothing is written', async (_name, over) => {
    await tenant.faces.create('real', [{ data: new Uint8Array([1]) }], new Date().toISOString());
    try {
      dump = (_req, res) => ok(res, page([]));
      const good = { externalId: 'real', document: { kind: 'CNH', fields: { nome: 'A' }, updatedAt: new Date().toISOString() }, version: version(), seq: 1 };
      const bad = { ...good, externalId: 'real2', seq: 2, document: { ...good.document, ...over } };
      documents = (_req, res) => ok(res, { result: { total_entries: 2, documents: [good, bad], tombstones: [], next_since: 2 } });
      const e = await pullError();
      expect(e.code).toBe('PEER_INVALID_RESPONSE');
      expect(await tenant.documents!.get('real')).toBeUndefined();
    } finally {
      await tenant.faces.delete('real');
    }
  });

  it('500 templates on one fingerprint person (limit 20), and 11 on a face (limit 10)', async () => {
    const many = Array.from({ length: 500 }, () => ({ data: t64, position: 'UNKNOWN' }));
    dump = (_req, res) => ok(res, page([face({ Templates: Array.from({ length: 11 }, () => ({ Data: t64 })) })]));
    expect((await pullError()).message).toMatch(/more than 10/);
    const fingerServer = http.createServer((req, res) => {
      if (req.url?.startsWith('/api/v1/app-credentials/token')) return ok(res, { token: 't' });
      if (req.url?.startsWith('/api/v1/services/face/dump')) return ok(res, page([]));
      ok(res, { result: { total_entries: 1, fingers: [{ externalId: 'f', templates: many, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), version: version(), seq: 1 }], tombstones: [], next_since: 1 } });
    });
    await new Promise<void>((r) => fingerServer.listen(0, '127.0.0.1', r));
    try {
      const e = await sync.pull(tenant, { ...peer(), url: `http://127.0.0.1:${(fingerServer.address() as AddressInfo).port}` }).catch((err) => err);
      expect(e.code).toBe('PEER_INVALID_RESPONSE');
      expect(e.message).toMatch(/more than 20/);
    } finally {
      fingerServer.closeAllConnections();
      await new Promise((r) => fingerServer.close(r));
    }
  });

  it.each([
    ['a time that is not a time', { UpdatedAt: 'zzz' }],
    ['year 2099', { UpdatedAt: '2099-01-01T00:00:00.000Z' }],
    ['a version in 2099', { Version: version(Date.parse('2099-01-01')) }],
    ['a malformed version', { Version: '9999999999999.999999@x; DROP TABLE persons' }],
    ['a template that is not base64', { Templates: [{ Data: '$$$' }] }],
    ['a negative sequence number', { Seq: -1 }],
  ])('%s is refused', async (_name, over) => {
    dump = (_req, res) => ok(res, page([face(over)]));
    expect((await pullError()).code).toBe('PEER_INVALID_RESPONSE');
  });

  it('a tombstone whose station id does not match its version is refused', async () => {
    dump = (_req, res) => ok(res, page([], { tombstones: [{ ExternalID: 'a', DeletedAt: new Date().toISOString(), Version: version(), StationID: 'someone-else', Seq: 1 }], next_since: 1 }));
    expect((await pullError()).message).toMatch(/station id/);
  });

  it('a response beyond the size limit is cut while streaming (1 GB never read)', async () => {
    let written = 0;
    dump = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (written < 1024 ** 3) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (written = Math.min(written, 1024 ** 3)));
      more();
    };
    const e = await pullError();
    expect(e.code).toBe('PEER_INVALID_RESPONSE');
    expect(e.message).toMatch(/larger than 1048576 bytes/);
    expect(written).toBeLessThan(256 * 1024 * 1024);
  });

  it('a gzip bomb is counted after decompression and cut', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // ~64 KB on the wire
    dump = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    };
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect((await pullError()).message).toMatch(/larger than/);
  });

  it('a peer that never finishes its answer is given up after the time limit', async () => {
    dump = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"result":');
    };
    // No duration is asserted: the answer never ends, so only the client's time limit can end the pull
    // (past the test's 60 s otherwise), and every request carried the configured 1.5 s, not the 30 s default.
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    try {
      expect((await pullError()).code).toBe('PEER_UNREACHABLE');
      expect(timeout).toHaveBeenCalled();
      for (const [ms] of timeout.mock.calls) expect(ms).toBe(1500);
    } finally {
      timeout.mockRestore();
    }
  });

  it('a redirect is not followed (the other host is never contacted)', async () => {
    const elsewhere: string[] = [];
    const other = http.createServer((req, res) => {
      elsewhere.push(req.url ?? '');
      ok(res, { token: 't' });
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    token = (_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1/app-credentials/token` });
      res.end();
    };
    try {
      expect((await pullError()).code).toBe('PEER_UNREACHABLE');
      expect(elsewhere).toEqual([]);
    } finally {
      other.closeAllConnections();
      await new Promise((r) => other.close(r));
    }
  });

  it('a closed port, a web server that is not a Biostation and one answering garbage all give the same answer', async () => {
    const closed = await sync.pull(tenant, { ...peer(), url: 'http://127.0.0.1:9' }).catch((e) => e);
    token = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>nginx</h1>');
    };
    const web = await pullError();
    token = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('not json');
    };
    const garbage = await pullError();
    for (const e of [closed, web, garbage]) expect({ code: e.code, message: e.message }).toEqual({ code: 'PEER_UNREACHABLE', message: closed.message });
  });

  it('a feed whose next_since does not advance stops with an error instead of looping', async () => {
    const full = Array.from({ length: 100 }, (_, i) => face({ ExternalID: `p${i}`, Seq: 0 }));
    dump = (_req, res) => ok(res, page(full, { next_since: 0, total_entries: 1_000_000 }));
    const e = await sync.pull(tenant, peer()).catch((err) => err);
    expect(e.code).toBe('PEER_INVALID_RESPONSE');
    expect(e.message).toMatch(/next_since/);
  });

  it('a spec-only peer (a dump without the change-feed extension) is read page by page, versions from UpdatedAt', async () => {
    const at = (i: number) => new Date(Date.now() - 1000 * (10 - i)).toISOString();
    const all = [0, 1, 2].map((i) => ({ ExternalID: `s${i}`, Templates: [{ Data: t64 }], CreatedAt: at(i), UpdatedAt: at(i) }));
    dump = (req, res) => {
      const u = new URL(req.url ?? '', 'http://x');
      const pageNo = Number(u.searchParams.get('page') ?? 1);
      const limit = Number(u.searchParams.get('limit') ?? 100);
      ok(res, { result: { total_entries: all.length, faces: all.slice((pageNo - 1) * limit, pageNo * limit) } });
    };
    const small = new SyncService(async () => () => undefined, { pageSize: 2, timeoutMs: 1500, maxResponseBytes: 1024 * 1024 });
    const r = await small.pull(tenant, peer());
    expect(r).toMatchObject({ pulled: 3, created: 3, error: null });
    expect((await tenant.faces.find('s2'))?.version).toMatch(/^\d{13}\.000000@legacy-peer$/);
    expect(await small.pull(tenant, peer())).toMatchObject({ pulled: 3, created: 0, skipped: 3 });
    for (const p of await tenant.faces.list()) await tenant.faces.delete(p.extId);
  });

  it('URLs with a user, a query or another scheme are refused before any connection; the secret is never logged', async () => {
    for (const bad of ['ftp://127.0.0.1/', 'http://u:p@127.0.0.1:1/', 'http://127.0.0.1:1/?x=1', 'file:///etc/passwd', 'not a url']) {
      const e = await sync.pull(tenant, { ...peer(), url: bad }).catch((err) => err);
      expect(e.code).toBe('INVALID_REQUEST');
    }
    const log = JSON.stringify(await tenant.syncLog.recent(100));
    expect(log).not.toContain('the-peer-secret');
    expect(log).not.toMatch(/"peerUrl":"[^"]*\/api/);
  });
});
