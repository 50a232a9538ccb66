import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReaderManager, startReaderBridge, VirtualReader, virtualReaderProvider, type ReaderEvent } from '../../native/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'readers-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('virtual reader', () => {
  it('serves the folder images in name order, cycling', async () => {
    await writeFile(path.join(dir, 'b.png'), 'B');
    await writeFile(path.join(dir, 'a.jpg'), 'A');
    await writeFile(path.join(dir, 'notes.txt'), 'x');
    const reader = new VirtualReader({ dir, id: 'virtual:t' });
    const got = [];
    for (let i = 0; i < 3; i++) got.push(await reader.capture());
    expect(got.map((g) => Buffer.from(g.bytes).toString())).toEqual(['A', 'B', 'A']);
    expect(got.map((g) => g.mime)).toEqual(['image/jpeg', 'image/png', 'image/jpeg']);
    expect(got[0]).toMatchObject({ readerId: 'virtual:t', dpi: 500 });
  });

  it('fails with stable codes', async () => {
    await expect(new VirtualReader({ dir: path.join(dir, 'missing') }).open()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(new VirtualReader({ dir }).capture()).rejects.toMatchObject({ code: 'NO_IMAGE' });
    const slow = new VirtualReader({ dir, delayMs: 1000 });
    const ac = new AbortController();
    const p = slow.capture({ signal: ac.signal });
    await expect(slow.capture()).rejects.toMatchObject({ code: 'BUSY' });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('reader manager', () => {
  it('attaches and detaches readers as sub-folders appear and vanish (hot-plug)', async () => {
    const manager = new ReaderManager({ providers: [virtualReaderProvider(dir)], pollMs: 0 });
    const events: ReaderEvent[] = [];
    manager.onEvent((e) => events.push(e));
    await manager.start();
    expect(manager.list()).toEqual([]);
    await mkdir(path.join(dir, 'left'));
    await writeFile(path.join(dir, 'left', '1.png'), 'L');
    await manager.scan();
    expect(manager.list().map((r) => r.id)).toEqual(['virtual:left']);
    const image = await manager.capture('virtual:left');
    expect(Buffer.from(image.bytes).toString()).toBe('L');
    await rm(path.join(dir, 'left'), { recursive: true });
    await manager.scan();
    expect(manager.list()).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['attached', 'capture-started', 'captured', 'detached']);
    await expect(manager.capture('virtual:left')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await manager.close();
  });
});

describe('reader bridge (headless)', () => {
  it('lists, captures as base64, streams events and allows loopback origins only', async () => {
    await writeFile(path.join(dir, '101_1.png'), 'PNGDATA');
    const manager = new ReaderManager({ providers: [virtualReaderProvider(dir)], pollMs: 0 });
    await manager.start();
    const bridge = await startReaderBridge(manager);
    try {
      const list = await fetch(`${bridge.url}/readers`, { headers: { Origin: 'http://localhost:5173' } });
      expect(list.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const { readers } = (await list.json()) as { readers: Array<{ id: string }> };
      expect(readers).toHaveLength(1);
      const evil = await fetch(`${bridge.url}/readers`, { headers: { Origin: 'https://evil.example' } });
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();

      const events = await fetch(`${bridge.url}/events`);
      const reader = events.body!.getReader();
      const shot = await fetch(`${bridge.url}/readers/${encodeURIComponent(readers[0]!.id)}/capture`, { method: 'POST' });
      expect(shot.status).toBe(200);
      const body = (await shot.json()) as { imageData: string; mime: string };
      expect(Buffer.from(body.imageData, 'base64').toString()).toBe('PNGDATA');
      expect(body.mime).toBe('image/png');
      let text = '';
      while (!text.includes('"captured"')) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain('"capture-started"');
      await reader.cancel();

      const missing = await fetch(`${bridge.url}/readers/nope/capture`, { method: 'POST' });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'NOT_FOUND' });
    } finally {
      await bridge.close();
      await manager.close();
    }
  });
});
