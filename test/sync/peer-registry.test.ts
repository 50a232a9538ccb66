import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keyring, type WrappedDataKey, type WrappedKeyStore } from '../../src/store/encryption/keyring.js';
import { masterKeyOf } from '../../src/store/encryption/master-key.js';
import { SqlitePeerListStore } from '../../src/store/sqlite/peer-list.js';
import { SyncPeerError, SyncPeerRegistry, resolveConfigured, type SyncPeer } from '../../src/sync/peer-registry.js';
import { keyringSealer } from '../../src/sync/peer-secrets.js';

/**
 * src/sync/peer-registry.ts: peers are bound to a local application by its KEY (application names
 * are not unique); configured peers may name it by key or by a name no other application shares;
 * an entry naming its application by name is read when unambiguous; a corrupt list reads as empty
 * and is never overwritten; the list lives in the registry's store (every node reads the same one),
 * an older sync-peers.json is imported once; secrets are sealed at rest.
 */
describe('sync peer registry: applications by key', () => {
  const apps = [{ key: 'bs_k1', name: 'x' }, { key: 'bs_k2', name: 'x' }, { key: 'bs_k3', name: 'solo' }];
  const peer = { url: 'https://peer.example', key: 'bs_peer', secret: 'peer-secret' };
  let dir: string;
  /** An older station's sync-peers.json (imported once). */
  let file: string;
  let list: SqlitePeerListStore;
  let warnings: string[];
  const registry = (configured: SyncPeer[] = []) => new SyncPeerRegistry(list, configured, { log: (_o, msg) => warnings.push(msg), legacyFile: file });
  /** The stored list's entries. */
  const stored = async () => JSON.parse((await list.read()).body!).peers;
  /** Replaces the stored document by `body` as it is. */
  const put = async (body: string) => expect(await list.write(body, (await list.read()).version)).toBe(true);

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'peer-registry-'));
    file = path.join(dir, 'sync-peers.json');
    list = new SqlitePeerListStore(path.join(dir, 'station.db'));
    warnings = [];
  });
  afterEach(() => {
    list.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a peer added for one of two applications of the same name belongs to that one only', async () => {
    const r = registry();
    await r.add(apps, 'bs_k1', { name: 'field', ...peer });
    expect((await r.viewsOf(apps, 'bs_k1')).map((p) => p.name)).toEqual(['field']);
    expect(await r.viewsOf(apps, 'bs_k2')).toEqual([]);
    await expect(r.remove(apps, 'bs_k2', 'field')).rejects.toMatchObject({ code: 'PEER_NOT_FOUND' });
    await r.add(apps, 'bs_k2', { name: 'field', ...peer, secret: 'other' }); // the same peer name for the other application is not PEER_EXISTS
    await r.remove(apps, 'bs_k2', 'field');
    expect((await r.all(apps)).map((p) => [p.appKey, p.name, p.secret])).toEqual([['bs_k1', 'field', 'peer-secret']]);
    expect((await stored())).toEqual([{ appKey: 'bs_k1', name: 'field', ...peer }]);
  });

  it('configured peers name their application by key or by a unique name; a shared name is ignored with a warning', async () => {
    const configured: SyncPeer[] = [
      { name: 'by-key', app: 'bs_k2', ...peer },
      { name: 'by-name', app: 'solo', ...peer },
      { name: 'ambiguous', app: 'x', ...peer },
      { name: 'unknown', app: 'nobody', ...peer },
    ];
    expect(resolveConfigured(configured, apps, (_o, msg) => warnings.push(msg)).map((p) => [p.name, p.appKey])).toEqual([['by-key', 'bs_k2'], ['by-name', 'bs_k3']]);
    expect(warnings).toEqual([expect.stringContaining('several applications have this name'), expect.stringContaining('names no local application')]);
    const r = registry(configured);
    expect(await r.viewsOf(apps, 'bs_k1')).toEqual([]);
    expect((await r.viewsOf(apps, 'bs_k2')).map((p) => [p.name, p.source])).toEqual([['by-key', 'config']]);
    await expect(r.remove(apps, 'bs_k2', 'by-key')).rejects.toMatchObject({ code: 'PEER_CONFIGURED' });
    await expect(r.add(apps, 'bs_k2', { name: 'by-key', ...peer })).rejects.toMatchObject({ code: 'PEER_EXISTS' });
  });

  it('an old file naming applications by name: a unique name is migrated (rewritten with the key on the next change), a shared one ignored with a warning and kept', async () => {
    await put(JSON.stringify({ peers: [{ app: 'solo', name: 'old', ...peer }, { app: 'x', name: 'shared', ...peer }] }));
    const r = registry();
    expect((await r.all(apps)).map((p) => [p.appKey, p.name])).toEqual([['bs_k3', 'old']]);
    expect(warnings).toEqual([expect.stringContaining('several applications have this name')]);
    expect(await r.viewsOf(apps, 'bs_k1')).toEqual([]);
    await r.add(apps, 'bs_k3', { name: 'new', ...peer });
    expect((await stored())).toEqual([
      { appKey: 'bs_k3', name: 'old', ...peer },
      { app: 'x', name: 'shared', ...peer },
      { appKey: 'bs_k3', name: 'new', ...peer },
    ]);
  });

  it('a corrupt list reads as empty with a warning; adding or removing refuses (PEER_FILE_UNREADABLE) and leaves it as it was', async () => {
    for (const content of ['{not json', '{"peers": 3}', 'null', '{"peers": [null]}']) {
      await put(content);
      warnings = [];
      const r = registry([{ name: 'conf', app: 'solo', ...peer }]);
      expect((await r.all(apps)).map((p) => p.name)).toEqual(['conf']);
      expect(warnings).toEqual([expect.stringContaining('unreadable')]);
      let error: unknown;
      try {
        await r.add(apps, 'bs_k3', { name: 'new', ...peer });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SyncPeerError);
      expect((error as SyncPeerError).code).toBe('PEER_FILE_UNREADABLE');
      await expect(r.remove(apps, 'bs_k3', 'new')).rejects.toMatchObject({ code: 'PEER_FILE_UNREADABLE' });
      expect((await list.read()).body).toBe(content);
    }
  });

  /** A keyring over an in-memory wrapped-key store with one master key, and the three applications' ids. */
  const sealerOf = (master = masterKeyOf(randomBytes(32))) => {
    const rows = new Map<string, WrappedDataKey>();
    const store: WrappedKeyStore = {
      get: async (id) => rows.get(id),
      insert: async (k) => (rows.set(k.applicationId, k), k),
      all: async () => [...rows.values()],
      rewrap: async (ks) => ks.forEach((k) => rows.set(k.applicationId, k)),
      close: async () => undefined,
    } as WrappedKeyStore;
    return keyringSealer(new Keyring(store, () => [master]), async (appKey) => (apps.some((a) => a.key === appKey) ? `id-${appKey}` : undefined));
  };

  it('two registries on one store (two API nodes) see the same peers; a change made meanwhile by the other is kept', async () => {
    const a = registry();
    const b = registry();
    await a.add(apps, 'bs_k1', { name: 'one', ...peer });
    expect((await b.viewsOf(apps, 'bs_k1')).map((p) => p.name)).toEqual(['one']);
    // this one reads the list, then `a` writes before it does: its conditional write fails and it tries again on a's list
    const racing = new SqlitePeerListStore(path.join(dir, 'station.db'));
    let first = true;
    const slow = new SyncPeerRegistry({
      read: () => racing.read(),
      async write(body, expected) {
        if (first) {
          first = false;
          await a.add(apps, 'bs_k1', { name: 'two', ...peer });
        }
        return racing.write(body, expected);
      },
    }, []);
    await slow.add(apps, 'bs_k1', { name: 'three', ...peer });
    racing.close();
    expect((await stored()).map((p: { name: string }) => p.name)).toEqual(['one', 'two', 'three']);
  });

  it('an older station\'s sync-peers.json is imported once (secrets sealed) and removed; a corrupt one is left, warned', async () => {
    writeFileSync(file, JSON.stringify({ peers: [{ appKey: 'bs_k1', name: 'legacy', ...peer }] }));
    const r = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), legacyFile: file, sealer: sealerOf() });
    expect((await r.all(apps)).map((p) => [p.name, p.secret])).toEqual([['legacy', 'peer-secret']]);
    expect(existsSync(file)).toBe(false);
    expect((await list.read()).body).not.toContain('peer-secret');
    expect(warnings).toEqual([expect.stringContaining('imported')]);
    // a second node's own old file (scaled-out stations had one per node): merged into the same list, a name already stored kept as stored
    const otherNode = path.join(dir, 'node2-sync-peers.json');
    writeFileSync(otherNode, JSON.stringify({ peers: [{ appKey: 'bs_k2', name: 'node2', ...peer }, { appKey: 'bs_k1', name: 'legacy', ...peer, url: 'https://other.example' }] }));
    const r2 = new SyncPeerRegistry(list, [], { log: () => undefined, legacyFile: otherNode, sealer: sealerOf() });
    expect((await r2.viewsOf(apps, 'bs_k1')).map((p) => [p.name, p.url])).toEqual([['legacy', peer.url]]);
    expect((await r2.viewsOf(apps, 'bs_k2')).map((p) => p.name)).toEqual(['node2']);
    expect(existsSync(otherNode)).toBe(false);
    // a corrupt old file: not imported, kept for the operator, warned
    const dir2 = mkdtempSync(path.join(os.tmpdir(), 'peer-registry-'));
    const list2 = new SqlitePeerListStore(path.join(dir2, 'station.db'));
    writeFileSync(path.join(dir2, 'sync-peers.json'), '{not json');
    warnings = [];
    expect(await new SyncPeerRegistry(list2, [], { log: (_o, msg) => warnings.push(msg), legacyFile: path.join(dir2, 'sync-peers.json') }).all(apps)).toEqual([]);
    expect(readFileSync(path.join(dir2, 'sync-peers.json'), 'utf8')).toBe('{not json');
    expect(warnings).toEqual([expect.stringContaining('not imported')]);
    list2.close();
    rmSync(dir2, { recursive: true, force: true });
  });

  describe('secrets sealed at rest (peer-secrets.ts keyringSealer)', () => {
    it('an added peer is written without its secret in clear and read back with it; a registry without the key leaves it out, warned', async () => {
      const sealer = sealerOf();
      const r = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), sealer });
      await r.add(apps, 'bs_k1', { name: 'field', ...peer });
      const text = (await list.read()).body!;
      expect(text).not.toContain(peer.secret);
      expect(JSON.parse(text).peers).toEqual([{ appKey: 'bs_k1', name: 'field', url: peer.url, key: peer.key, sealedSecret: expect.stringMatching(/^v1:/) }]);
      expect((await r.all(apps)).map((p) => [p.appKey, p.name, p.secret])).toEqual([['bs_k1', 'field', 'peer-secret']]);
      expect((await r.viewsOf(apps, 'bs_k1')).map((p) => p.name)).toEqual(['field']);
      // another station's key (or none) cannot open it: the peer is left out, not used with a wrong secret
      const stranger = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), sealer: sealerOf() });
      expect(await stranger.all(apps)).toEqual([]);
      expect(await new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg) }).all(apps)).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining('does not open'), expect.stringContaining('does not open')]);
    });

    it('a sealed secret is bound to its entry: pointing the URL elsewhere, or moving it to another application, does not open it', async () => {
      const r = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), sealer: sealerOf() });
      await r.add(apps, 'bs_k1', { name: 'field', ...peer });
      const [entry] = await stored();
      await put(JSON.stringify({ peers: [{ ...entry, url: 'https://attacker.example' }, { ...entry, appKey: 'bs_k2' }] }));
      expect(await r.all(apps)).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining('does not open')]); // each distinct warning once
    });

    it('entries written around the station are never used: a secret in clear, or a URL the Admin screen refuses (e.g. plain http to another host), is ignored and not carried into the next change', async () => {
      await put(JSON.stringify({ peers: [{ appKey: 'bs_k3', name: 'planted', url: 'https://evil.example', key: 'k', secret: 'planted-secret' }] }));
      const r = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), sealer: sealerOf() });
      expect(await r.all(apps)).toEqual([]);
      expect(await r.viewsOf(apps, 'bs_k3')).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining('secret in clear')]);
      await r.add(apps, 'bs_k3', { name: 'new', ...peer, secret: 'new-secret' });
      const text = (await list.read()).body!;
      expect(text).not.toContain('planted');
      expect(text).not.toContain('new-secret');
      expect((await r.all(apps)).map((p) => [p.name, p.secret])).toEqual([['new', 'new-secret']]);
      // a sealed entry whose URL was rewritten into one the Admin screen refuses
      const [entry] = await stored();
      await put(JSON.stringify({ peers: [{ ...entry, url: 'http://10.0.0.9:8080' }] }));
      warnings = [];
      expect(await r.all(apps)).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining('URL')]);
    });

    it('an old file is bound by application key, sealed, de-duplicated by key and capped; what cannot be imported stays in it', async () => {
      await new SyncPeerRegistry(list, [], { log: () => undefined, sealer: sealerOf() }).add(apps, 'bs_k3', { name: 'field', ...peer });
      const many = Array.from({ length: 33 }, (_, i) => ({ appKey: 'bs_k1', name: `p${i}`, ...peer }));
      writeFileSync(file, JSON.stringify({ peers: [
        { app: 'solo', name: 'field', ...peer, secret: 'other' }, // solo is bs_k3, which already has 'field': not a second one
        { app: 'x', name: 'shared', ...peer }, // two applications are named x: stays in the file
        ...many,
      ] }));
      const infos: string[] = [];
      const r = new SyncPeerRegistry(list, [], { log: (_o, msg) => warnings.push(msg), info: (_o, msg) => infos.push(msg), legacyFile: file, sealer: sealerOf() });
      expect((await r.viewsOf(apps, 'bs_k3')).map((p) => p.name)).toEqual(['field']);
      expect((await r.viewsOf(apps, 'bs_k1')).length).toBe(31); // 32 at most, one already stored
      expect((await list.read()).body).not.toContain('"secret"');
      const left = JSON.parse(readFileSync(file, 'utf8')).peers.map((p: { name: string }) => p.name);
      expect(left).toEqual(['shared', 'p31', 'p32']);
      expect(infos).toEqual([expect.stringContaining('partly imported')]);
    });
  });
});
