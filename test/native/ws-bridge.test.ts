import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ReaderManager, startReaderBridge, type ReaderEvent } from '../../native/index.js';
import { usbReaderProvider, type UsbModuleLike } from '../../native/usb-provider.js';
import { loadRecording, type Recording } from '../../native/usb/recording.js';
import { ReplayTransport } from '../../native/usb/replay-transport.js';
import type { UsbDeviceLike, UsbTransport } from '../../native/usb/transport.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/** A fake `usb` module whose devices replay recordings (as in usb-manager.test.ts). */
class FakeUsb extends EventEmitter implements UsbModuleLike {
  devices: Array<UsbDeviceLike & { recording: Recording }> = [];
  getDeviceList(): UsbDeviceLike[] {
    return this.devices;
  }
  plug(recording: Recording, port: number): UsbDeviceLike {
    const device = {
      deviceDescriptor: { idVendor: recording.device.vendorId, idProduct: recording.device.productId },
      busNumber: 1,
      deviceAddress: port + 10,
      portNumbers: [port],
      recording,
    } as unknown as UsbDeviceLike & { recording: Recording };
    this.devices.push(device);
    this.emit('attach', device);
    return device;
  }
  unplug(device: UsbDeviceLike): void {
    this.devices = this.devices.filter((d) => d !== device);
    this.emit('detach', device);
  }
  transportFor = (device: UsbDeviceLike): UsbTransport => {
    const recording = (device as UsbDeviceLike & { recording: Recording }).recording;
    return new ReplayTransport({ ...recording, urbs: recording.urbs.map((u) => ({ ...u })) });
  };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

/** Resolves with the HTTP status of a refused upgrade, or 101 when it was accepted. */
function upgradeStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

describe.skipIf(!haveCaptures)('reader events over the bridge WebSocket (/ws)', () => {
  it('attach, capture (started, finger on/off, captured), error and detach arrive as JSON messages; loopback origins only', async () => {
    const usb = new FakeUsb();
    const manager = new ReaderManager({ providers: [usbReaderProvider({ usb, transportFor: usb.transportFor })], pollMs: 0 });
    await manager.start();
    const bridge = await startReaderBridge(manager);
    const wsUrl = `${bridge.url.replace(/^http/, 'ws')}/ws`;
    const ws = new WebSocket(wsUrl, { origin: 'http://localhost:5173' });
    const events: ReaderEvent[] = [];
    ws.on('message', (data) => events.push(JSON.parse(String(data)) as ReaderEvent));
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const device = usb.plug(await loadRecording(captureDir('upektc_img')), 3);
      await until(() => events.some((e) => e.type === 'attached'));
      const id = (events.find((e) => e.type === 'attached') as Extract<ReaderEvent, { type: 'attached' }>).reader.id;

      const shot = await fetch(`${bridge.url}/readers/${encodeURIComponent(id)}/capture`, { method: 'POST' });
      expect(shot.status).toBe(200);
      await until(() => events.some((e) => e.type === 'captured'));
      expect(events.map((e) => e.type)).toEqual(['attached', 'capture-started', 'finger-on', 'finger-off', 'captured']);
      expect(events.at(-1)).toMatchObject({ readerId: id, widthPx: 144, heightPx: 384, dpi: 508 });

      // A reader whose finger never comes (aes3500 without its image read), cancelled: an error event.
      const rec = await loadRecording(captureDir('aes3500'));
      usb.plug({ ...rec, urbs: rec.urbs.filter((u) => !(u.endpoint === 0x81 && u.requestedLength === 8329)) }, 4);
      await until(() => events.filter((e) => e.type === 'attached').length === 2);
      const waiting = (events.filter((e) => e.type === 'attached')[1] as Extract<ReaderEvent, { type: 'attached' }>).reader.id;
      const pending = fetch(`${bridge.url}/readers/${encodeURIComponent(waiting)}/capture`, { method: 'POST' });
      await until(() => events.some((e) => e.type === 'capture-started' && e.readerId === waiting));
      await fetch(`${bridge.url}/readers/${encodeURIComponent(waiting)}/capture`, { method: 'DELETE' });
      expect((await pending).status).toBe(499);
      await until(() => events.some((e) => e.type === 'error'));
      expect(events.find((e) => e.type === 'error')).toMatchObject({ readerId: waiting, code: 'CANCELLED', message: expect.any(String) });

      usb.unplug(device);
      await until(() => events.some((e) => e.type === 'detached'));
      expect(events.at(-1)).toEqual({ type: 'detached', readerId: id });

      expect(await upgradeStatus(wsUrl, 'https://evil.example')).toBe(403);
      expect(await upgradeStatus(`${bridge.url.replace(/^http/, 'ws')}/nope`)).toBe(404);
      expect(await upgradeStatus(wsUrl)).toBe(101); // no Origin: a local non-browser client
    } finally {
      ws.close();
      await bridge.close();
      await manager.close();
    }
  });
});
