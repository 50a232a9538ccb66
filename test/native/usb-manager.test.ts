import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ReaderManager, startReaderBridge, type ReaderEvent } from '../../native/index.js';
import { comparePixels, decodeGray } from '../../native/replay.js';
import { replayReaderProvider, usbReaderProvider, type UsbModuleLike } from '../../native/usb-provider.js';
import { loadRecording, type Recording } from '../../native/usb/recording.js';
import { ReplayTransport } from '../../native/usb/replay-transport.js';
import { UsbTransferError, type UsbDeviceLike, type UsbTransport } from '../../native/usb/transport.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/** A fake `usb` module: a device list plus attach/detach events; each device replays a recording. */
class FakeUsb extends EventEmitter implements UsbModuleLike {
  devices: Array<UsbDeviceLike & { recording: Recording }> = [];
  /** The transports handed out, newest last (one per capture session). */
  transports: ReplayTransport[] = [];

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

  /** Pulls the device; with `transfersFail: false` only the detach event arrives (libusb has not failed the transfer yet). */
  unplug(device: UsbDeviceLike, transfersFail = true): void {
    this.devices = this.devices.filter((d) => d !== device);
    if (transfersFail) for (const t of this.transports) t.unplug();
    this.emit('detach', device);
  }

  transportFor = (device: UsbDeviceLike): UsbTransport => {
    const recording = (device as UsbDeviceLike & { recording: Recording }).recording;
    const t = new ReplayTransport({ ...recording, urbs: recording.urbs.map((u) => ({ ...u })) });
    this.transports.push(t);
    return t;
  };
}

/** aes3500 without its image read: the capture waits for a finger that never comes. */
async function fingerNeverComes(): Promise<Recording> {
  const rec = await loadRecording(captureDir('aes3500'));
  return { ...rec, urbs: rec.urbs.filter((u) => !(u.endpoint === 0x81 && u.requestedLength === 8329)) };
}

const tick = () => new Promise((r) => setTimeout(r, 10));
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await tick();
  expect(cond()).toBe(true);
}

function setup() {
  const usb = new FakeUsb();
  const manager = new ReaderManager({ providers: [usbReaderProvider({ usb, transportFor: usb.transportFor })], pollMs: 0 });
  const events: ReaderEvent[] = [];
  manager.onEvent((e) => events.push(e));
  return { usb, manager, events };
}

describe.skipIf(!haveCaptures)('reader manager over a fake usb module', () => {
  it('attach: the reader appears with its driver, captures the recorded image, emits finger and image events', async () => {
    const { usb, manager, events } = setup();
    await manager.start();
    expect(manager.list()).toEqual([]);
    usb.plug(await loadRecording(captureDir('nb1010')), 7);
    await until(() => manager.list().length === 1);
    expect(manager.list()[0]).toMatchObject({ id: 'usb:298d:1010:1-7', kind: 'usb', driver: 'nb1010', usbId: '298d:1010', dpi: 500 });
    const image = await manager.capture('usb:298d:1010:1-7');
    expect(image).toMatchObject({ mime: 'image/png', dpi: 500, widthPx: 256, heightPx: 180 });
    const diff = comparePixels(await decodeGray(image.bytes), await decodeGray(await readFile(`${captureDir('nb1010')}/capture.png`)));
    expect(diff.meanAbsDiff).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['attached', 'capture-started', 'finger-on', 'captured']);
    await manager.close();
  });

  it('detach while capturing: DISCONNECTED, the reader leaves the list, and a replugged reader works', async () => {
    const { usb, manager, events } = setup();
    await manager.start();
    const device = usb.plug(await fingerNeverComes(), 3);
    await until(() => manager.list().length === 1);
    const id = manager.list()[0]!.id;
    const pending = manager.capture(id, { timeoutMs: 60_000 });
    await until(() => usb.transports.length > 0 && usb.transports.at(-1)!.commandCount > 10);
    usb.unplug(device);
    await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED' });
    await until(() => manager.list().length === 0);
    const tail = events.filter((e) => e.type === 'error' || e.type === 'detached');
    expect(tail).toHaveLength(2);
    expect(tail).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'error', readerId: id, code: 'DISCONNECTED' }), { type: 'detached', readerId: id }]),
    );
    await expect(manager.capture(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    usb.plug(await loadRecording(captureDir('aes3500')), 3);
    await until(() => manager.list().length === 1);
    await expect(manager.capture(id)).resolves.toMatchObject({ widthPx: 256, heightPx: 256 });
    await manager.close();
  });

  it('a detach event alone (the transfer still pending) also ends the capture with DISCONNECTED', async () => {
    const { usb, manager } = setup();
    await manager.start();
    const device = usb.plug(await fingerNeverComes(), 8);
    await until(() => manager.list().length === 1);
    const id = manager.list()[0]!.id;
    const pending = manager.capture(id, { timeoutMs: 60_000 });
    await until(() => usb.transports.length > 0 && usb.transports.at(-1)!.commandCount > 10);
    usb.unplug(device, false);
    await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED', message: expect.stringMatching(/unplugged during the capture/) });
    expect(manager.list()).toEqual([]);
    await manager.close();
  });

  it('two clients: the owner captures, the other gets "reader busy"; a second capture while one runs is busy too', async () => {
    const { usb, manager } = setup();
    await manager.start();
    usb.plug(await fingerNeverComes(), 4);
    await until(() => manager.list().length === 1);
    const id = manager.list()[0]!.id;
    manager.claim(id, 'kiosk-window');
    expect(() => manager.claim(id, 'browser-tab')).toThrow(/reader busy/);
    await expect(manager.capture(id, { owner: 'browser-tab' })).rejects.toMatchObject({ code: 'BUSY', message: expect.stringMatching(/reader busy/) });
    const ac = new AbortController();
    const first = manager.capture(id, { owner: 'kiosk-window', signal: ac.signal });
    await expect(manager.capture(id, { owner: 'kiosk-window' })).rejects.toMatchObject({ code: 'BUSY' });
    ac.abort();
    await expect(first).rejects.toMatchObject({ code: 'CANCELLED' });
    manager.release(id, 'kiosk-window');
    expect(() => manager.claim(id, 'browser-tab')).not.toThrow();
    await manager.close();
  });

  it('cancel: through the bridge (DELETE) the waiting capture fails with CANCELLED (HTTP 499), and the reader works after', async () => {
    const { usb, manager } = setup();
    await manager.start();
    const device = usb.plug(await fingerNeverComes(), 9);
    await until(() => manager.list().length === 1);
    const id = encodeURIComponent(manager.list()[0]!.id);
    const bridge = await startReaderBridge(manager);
    try {
      const pending = fetch(`${bridge.url}/readers/${id}/capture`, { method: 'POST' });
      await until(() => usb.transports.length > 0 && usb.transports.at(-1)!.commandCount > 10);
      expect(await (await fetch(`${bridge.url}/readers/${id}/capture`, { method: 'DELETE' })).json()).toEqual({ cancelled: true });
      const res = await pending;
      expect(res.status).toBe(499);
      expect(await res.json()).toMatchObject({ error: 'CANCELLED' });
      expect(await (await fetch(`${bridge.url}/readers/${id}/capture`, { method: 'DELETE' })).json()).toEqual({ cancelled: false });
      usb.unplug(device);
      usb.plug(await loadRecording(captureDir('aes3500')), 9);
      await until(() => manager.list().length === 1);
      expect((await fetch(`${bridge.url}/readers/${id}/capture`, { method: 'POST' })).status).toBe(200);
    } finally {
      await bridge.close();
      await manager.close();
    }
  });

  it('permission denied: PERMISSION naming the udev rule', async () => {
    const usb = new FakeUsb();
    const denied = (device: UsbDeviceLike): UsbTransport => {
      const t = usb.transportFor(device);
      t.open = () => Promise.reject(new UsbTransferError('ACCESS', 'open: LIBUSB_ERROR_ACCESS'));
      return t;
    };
    const manager = new ReaderManager({ providers: [usbReaderProvider({ usb, transportFor: denied })], pollMs: 0 });
    await manager.start();
    usb.plug(await loadRecording(captureDir('nb1010')), 5);
    await until(() => manager.list().length === 1);
    await expect(manager.capture(manager.list()[0]!.id)).rejects.toMatchObject({
      code: 'PERMISSION',
      message: expect.stringMatching(/70-biostation-readers\.rules/),
    });
    await manager.close();
  });
});

describe.skipIf(!haveCaptures)('replayed readers: failures are typed errors and the manager keeps working', () => {
  it('timeout, unplug mid-capture and a corrupted reply, each followed by a good capture', async () => {
    const usb = new FakeUsb();
    const manager = new ReaderManager({
      providers: [usbReaderProvider({ usb, transportFor: usb.transportFor }), replayReaderProvider([captureDir('vfs5011')])],
      pollMs: 0,
    });
    await manager.start();
    const good = 'replay:vfs5011';
    expect(manager.list().map((r) => r.id)).toEqual([good]);

    // Timeout: the finger never comes.
    const waiting = usb.plug(await fingerNeverComes(), 1);
    await until(() => manager.list().length === 2);
    const waitingId = manager.list().find((r) => r.id !== good)!.id;
    await expect(manager.capture(waitingId, { timeoutMs: 150 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(manager.capture(good)).resolves.toMatchObject({ widthPx: 160, heightPx: 334 });

    // Unplug mid-capture (the transport fails with NO_DEVICE before the manager hears of the detach).
    const pending = manager.capture(waitingId);
    await until(() => usb.transports.at(-1)!.commandCount > 10);
    usb.transports.at(-1)!.unplug();
    await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED' });
    usb.unplug(waiting);
    await until(() => manager.list().length === 1);
    await expect(manager.capture(good)).resolves.toMatchObject({ mime: 'image/png' });

    // Corrupted reply: one byte flipped in a recorded image frame of the UPEK coprocessor (CRC-checked).
    const upek = await loadRecording(captureDir('upektc_img'));
    const frame = upek.urbs.find((u) => u.endpoint === 0x81 && u.data[4] === 0x00 && u.data[7] === 0x2c)!;
    frame.data = frame.data.slice();
    frame.data[40] ^= 0x80;
    usb.plug(upek, 2);
    await until(() => manager.list().length === 2);
    const upekId = manager.list().find((r) => r.id !== good)!.id;
    await expect(manager.capture(upekId)).rejects.toMatchObject({ code: 'PROTOCOL', message: expect.stringMatching(/CRC/) });

    // Corrupted command: a byte flipped in a recorded OUT makes the replay diverge, naming command and byte.
    const nb = await loadRecording(captureDir('nb1010'));
    nb.urbs[0]!.data = nb.urbs[0]!.data.slice();
    nb.urbs[0]!.data[1] ^= 0x01;
    usb.plug(nb, 6);
    await until(() => manager.list().length === 3);
    const nbId = manager.list().find((r) => r.driver === 'nb1010')!.id;
    await expect(manager.capture(nbId)).rejects.toMatchObject({ code: 'PROTOCOL', message: expect.stringMatching(/command #0, byte 1/) });

    await expect(manager.capture(good)).resolves.toMatchObject({ widthPx: 160 });
    await manager.close();
  });
});
