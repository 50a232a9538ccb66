import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReaderManager, startReaderBridge, type ReaderBridge, type ReaderEvent } from '../../native/index.js';
import { replayReaderProvider } from '../../native/usb-provider.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { startTestStation, type TestStation } from '../api/harness.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/**
 * The headless station path end to end: replayed USB readers behind the loopback reader bridge
 * (what the kiosk page calls), the captured image sent to the station's fingerprint API with its
 * dpi exactly as an uploaded one.
 */
describe.skipIf(!haveCaptures)('a replayed reader through the station', () => {
  let t: TestStation;
  let token: string;
  let manager: ReaderManager;
  let bridge: ReaderBridge;
  const events: ReaderEvent[] = [];

  beforeAll(async () => {
    t = await startTestStation({ fingerEngine: createFingerEngine });
    token = (await t.application('usb-readers')).token;
    manager = new ReaderManager({ providers: [replayReaderProvider([captureDir('nb1010'), captureDir('upektc_img'), captureDir('elan')])], pollMs: 0 });
    manager.onEvent((e) => events.push(e));
    await manager.start();
    bridge = await startReaderBridge(manager);
  });
  afterAll(async () => {
    await bridge?.close();
    await manager?.close();
    await t?.close();
  });

  const capture = async (readerId: string) => {
    const res = await fetch(`${bridge.url}/readers/${encodeURIComponent(readerId)}/capture`, { method: 'POST' });
    expect(res.status).toBe(200);
    return (await res.json()) as { imageData: string; dpi: number; mime: string };
  };
  const finger = (p: string, json: unknown) => t.request('POST', `/api/v1/services/finger${p}`, { token, json });

  it('lists the replayed readers with their driver and dpi', async () => {
    const res = await fetch(`${bridge.url}/readers`);
    const { readers } = (await res.json()) as { readers: Array<{ id: string; driver: string; dpi: number; kind: string }> };
    expect(readers.map((r) => [r.id, r.driver, r.dpi, r.kind])).toEqual([
      ['replay:nb1010', 'nb1010', 500, 'replay'],
      ['replay:upektc_img', 'upektc_img', 508, 'replay'],
      ['replay:elan', 'elan', 600, 'replay'],
    ]);
  });

  it('capture -> enroll -> capture -> verify of the same finger matches; another finger does not', async () => {
    const first = await capture('replay:nb1010');
    expect(first).toMatchObject({ mime: 'image/png', dpi: 500 });
    const enrolled = await finger('/enroll/usb-person', { position: 'UNKNOWN', dpi: String(first.dpi), imageData: first.imageData });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.result.code).toBe(1000);

    const second = await capture('replay:nb1010');
    const verified = await finger('/usb-person/verify', { imageData: second.imageData, dpi: String(second.dpi) });
    expect(verified.body.result.code).toBe(1002);

    const other = await capture('replay:upektc_img');
    const rejected = await finger('/usb-person/verify', { imageData: other.imageData, dpi: String(other.dpi) });
    expect(rejected.body.result.code).toBe(1003);

    const about = (e: ReaderEvent) => ('reader' in e ? e.reader.id : e.readerId);
    expect(events.filter((e) => about(e) === 'replay:nb1010').map((e) => e.type)).toEqual([
      'attached', 'capture-started', 'finger-on', 'captured', 'capture-started', 'finger-on', 'captured',
    ]);
  });

  it('elan (a stitched swipe, stated at the 600 dpi its ridges imply): capture -> enroll -> capture -> verify at that dpi', async () => {
    const first = await capture('replay:elan');
    expect(first).toMatchObject({ mime: 'image/png', dpi: 600 });
    const enrolled = await finger('/enroll/usb-elan', { position: 'UNKNOWN', dpi: String(first.dpi), imageData: first.imageData });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.result.code).toBe(1000);
    const second = await capture('replay:elan');
    const verified = await finger('/usb-elan/verify', { imageData: second.imageData, dpi: String(second.dpi) });
    expect(verified.body.result.code, JSON.stringify(verified.body)).toBe(1002);
  });
});
