import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncPeerError, SyncPeerRegistry, resolveConfigured, type SyncPeer } from '../../src/sync/peer-registry.js';

/**
 * src/sync/peer-registry.ts: peers are bound to a local application by its KEY (application names
 * are not unique); configured peers may name it by key or by a name no other application shares;
 * an old sync-peers.json (`app`: a name) is read when unambiguous; a corrupt file reads as empty
 * and is never overwritten.
 */
describe('sync peer registry: applications by key', () => {
  const apps = [{ key: 'bs_k1', name: 'x' }, { key: 'bs_k2', name: 'x' }, { key: 'bs_k3', name: 'solo' }];
  const peer = { url: 'https://peer.example', key: 'bs_peer', secret: 'peer-secret' };
  let dir: string;
  let file: string;
  let warnings: string[];
  const registry = (configured: SyncPeer[] = []) => new SyncPeerRegistry(file, configured, (_o, msg) => warnings.push(msg));

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'peer-registry-'));
    file = path.join(dir, 'sync-peers.json');
    warnings = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a peer added for one of two applications of the same name belongs to that one only', () => {
    const r = registry();
    r.add(apps, 'bs_k1', { name: 'field', ...peer });
    expect(r.viewsOf(apps, 'bs_k1').map((p) => p.name)).toEqual(['field']);
    expect(r.viewsOf(apps, 'bs_k2')).toEqual([]);
    expect(() => r.remove(apps, 'bs_k2', 'field')).toThrow(expect.objectContaining({ code: 'PEER_NOT_FOUND' }));
    r.add(apps, 'bs_k2', { name: 'field', ...peer, secret: 'other' }); // the same peer name for the other application is not PEER_EXISTS
    r.remove(apps, 'bs_k2', 'field');
    expect(r.all(apps).map((p) => [p.appKey, p.name, p.secret])).toEqual([['bs_k1', 'field', 'peer-secret']]);
    expect(JSON.parse(readFileSync(file, 'utf8')).peers).toEqual([{ appKey: 'bs_k1', name: 'field', ...peer }]);
  });

  it('configured peers name their application by key or by a unique name; a shared name is ignored with a warning', () => {
    const configured: SyncPeer[] = [
      { name: 'by-key', app: 'bs_k2', ...peer },
      { name: 'by-name', app: 'solo', ...peer },
      { name: 'ambiguous', app: 'x', ...peer },
      { name: 'unknown', app: 'nobody', ...peer },
    ];
    expect(resolveConfigured(configured, apps, (_o, msg) => warnings.push(msg)).map((p) => [p.name, p.appKey])).toEqual([['by-key', 'bs_k2'], ['by-name', 'bs_k3']]);
    expect(warnings).toEqual([expect.stringContaining('several applications have this name'), expect.stringContaining('names no local application')]);
    const r = registry(configured);
    expect(r.viewsOf(apps, 'bs_k1')).toEqual([]);
    expect(r.viewsOf(apps, 'bs_k2').map((p) => [p.name, p.source])).toEqual([['by-key', 'config']]);
    expect(() => r.remove(apps, 'bs_k2', 'by-key')).toThrow(expect.objectContaining({ code: 'PEER_CONFIGURED' }));
    expect(() => r.add(apps, 'bs_k2', { name: 'by-key', ...peer })).toThrow(expect.objectContaining({ code: 'PEER_EXISTS' }));
  });

  it('an old file naming applications by name: a unique name is migrated (rewritten with the key on the next change), a shared one ignored with a warning and kept', () => {
    writeFileSync(file, JSON.stringify({ peers: [{ app: 'solo', name: 'old', ...peer }, { app: 'x', name: 'shared', ...peer }] }));
    const r = registry();
    expect(r.all(apps).map((p) => [p.appKey, p.name])).toEqual([['bs_k3', 'old']]);
    expect(warnings).toEqual([expect.stringContaining('several applications have this name')]);
    expect(r.viewsOf(apps, 'bs_k1')).toEqual([]);
    r.add(apps, 'bs_k3', { name: 'new', ...peer });
    expect(JSON.parse(readFileSync(file, 'utf8')).peers).toEqual([
      { appKey: 'bs_k3', name: 'old', ...peer },
      { app: 'x', name: 'shared', ...peer },
      { appKey: 'bs_k3', name: 'new', ...peer },
    ]);
  });

  it('a corrupt file reads as empty with a warning; adding or removing refuses (PEER_FILE_UNREADABLE) and leaves it as it was', () => {
    for (const content of ['{not json', '{"peers": 3}', 'null', '{"peers": [null]}']) {
      writeFileSync(file, content);
      warnings = [];
      const r = registry([{ name: 'conf', app: 'solo', ...peer }]);
      expect(r.all(apps).map((p) => p.name)).toEqual(['conf']);
      expect(warnings).toEqual([expect.stringContaining('unreadable')]);
      let error: unknown;
      try {
        r.add(apps, 'bs_k3', { name: 'new', ...peer });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SyncPeerError);
      expect((error as SyncPeerError).code).toBe('PEER_FILE_UNREADABLE');
      expect(() => r.remove(apps, 'bs_k3', 'new')).toThrow(expect.objectContaining({ code: 'PEER_FILE_UNREADABLE' }));
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });
});
