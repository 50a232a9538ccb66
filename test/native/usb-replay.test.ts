import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { nb1010 } from '../../native/drivers/nb1010.js';
import { loadRecording, parseIoctlRecording, parsePcapngRecording, type Recording } from '../../native/usb/recording.js';
import { ReplayMismatchError, ReplayTransport } from '../../native/usb/replay-transport.js';
import { UsbTransferError } from '../../native/usb/transport.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));

/** A tiny recording: poll command, its reply, a second OUT with a nested IN. */
function tinyRecording(): Recording {
  const urbs = parseIoctlRecording(
    [
      '@DEV /dev/bus/usb/001/003',
      'USBDEVFS_GET_CAPABILITIES 0 FD010000',
      '# a comment',
      'USBDEVFS_REAPURBNDELAY 0 3 2 0 0 4 4 0 80380100',
      ' USBDEVFS_REAPURBNDELAY 0 3 131 0 0 16 2 0 AABB',
      'USBDEVFS_REAPURBNDELAY 0 3 2 0 0 2 2 0 0102',
      ' USBDEVFS_REAPURBNDELAY 0 3 131 -2 0 8 0 0 ',
    ].join('\n'),
  );
  return { dir: 'tiny', file: 'capture.ioctl', urbs, device: { vendorId: 0x298d, productId: 0x1010, busNumber: 1, deviceAddress: 3, descriptors: undefined, name: 'tiny' } };
}

describe('umockdev ioctl parser', () => {
  it('reads URB lines in file order with type, endpoint, lengths, status and data', () => {
    const { urbs } = tinyRecording();
    expect(urbs.map((u) => [u.type, u.endpoint, u.requestedLength, u.status, Buffer.from(u.data).toString('hex')])).toEqual([
      ['bulk', 2, 4, 0, '80380100'],
      ['bulk', 131, 16, 0, 'aabb'],
      ['bulk', 2, 2, 0, '0102'],
      ['bulk', 131, 8, -2, ''],
    ]);
  });

  it('rejects data whose length disagrees with the line, naming the line', () => {
    expect(() => parseIoctlRecording('USBDEVFS_REAPURBNDELAY 0 3 2 0 0 4 4 0 8038')).toThrow(/capture.ioctl:1: 2 data bytes, expected 4/);
    expect(() => parseIoctlRecording('USBDEVFS_CONTROL 0 1 2')).toThrow(/unsupported ioctl/);
  });
});

describe('replay transport', () => {
  it('answers INs with the recorded data and accepts the recorded OUTs', async () => {
    const t = new ReplayTransport(tinyRecording());
    await t.open();
    await t.bulkOut(2, hex('80380100'));
    expect(Buffer.from(await t.bulkIn(0x83, 16)).toString('hex')).toBe('aabb');
    await t.bulkOut(2, hex('0102'));
    await expect(t.bulkIn(0x83, 8)).rejects.toMatchObject({ code: 'CANCELLED' });
    // Search wraps around: the first command again matches the first line.
    await t.bulkOut(2, hex('80380100'));
    expect(t.coverage).toEqual({ used: 4, total: 4 });
  });

  it('fails loudly on an OUT differing from the recording: command index and byte offset', async () => {
    const t = new ReplayTransport(tinyRecording());
    await t.bulkOut(2, hex('80380100'));
    await t.bulkIn(0x83, 16);
    const err = await t.bulkOut(2, hex('0103')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplayMismatchError);
    expect(err).toMatchObject({ code: 'REPLAY_MISMATCH', commandIndex: 2, byteOffset: 1 });
    expect((err as Error).message).toMatch(/command #2, byte 1: bulk OUT 0x02 sent 0103, the device expected 0102 \(capture.ioctl:6\): 0x03 instead of 0x02/);
    await expect(t.bulkOut(5, hex('00'))).rejects.toThrow(/the recording has no bulk OUT 0x05 transfer/);
  });

  it('an IN the device never answered waits for its timeout, the abort signal or an unplug', async () => {
    const t = new ReplayTransport(tinyRecording());
    await expect(t.bulkIn(0x83, 99, { timeoutMs: 20 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const ac = new AbortController();
    const pending = t.bulkIn(0x83, 99, { signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
    const waiting = t.bulkIn(0x83, 99);
    t.unplug();
    await expect(waiting).rejects.toMatchObject({ code: 'NO_DEVICE' });
    await expect(t.bulkOut(2, hex('80380100'))).rejects.toBeInstanceOf(UsbTransferError);
  });
});

describe.skipIf(!haveCaptures)('recorded sessions', () => {
  it('parses the usbmon pcapng of upektc_img: vendor control OUT then bulk frames starting with Ciao', async () => {
    const rec = await loadRecording(captureDir('upektc_img'));
    expect(rec.file).toBe('capture.pcapng');
    const vendor = rec.urbs.find((u) => u.type === 'control' && u.setup?.[0] === 0x40);
    expect(Buffer.from(vendor!.setup!).toString('hex')).toBe('400c000100040100');
    const bulk = rec.urbs.filter((u) => u.type === 'bulk');
    expect(bulk.filter((u) => Buffer.from(u.data.subarray(0, 4)).toString() === 'Ciao').length).toBeGreaterThan(50);
    expect(() => parsePcapngRecording(new Uint8Array(8))).toThrow(/no interface description block/);
  });

  it('nb1010: a changed byte in a recorded command is reported with its command and byte', async () => {
    const rec = await loadRecording(captureDir('nb1010'));
    rec.urbs[2]!.data = rec.urbs[2]!.data.slice();
    rec.urbs[2]!.data[9] ^= 0xff; // the pre-capture command, byte 9
    const driver = nb1010.create(new ReplayTransport(rec));
    await driver.open();
    await expect(driver.capture()).rejects.toMatchObject({ code: 'REPLAY_MISMATCH', commandIndex: 2, byteOffset: 9 });
  });

  it('the ioctl text of every recording parses', async () => {
    for (const dev of ['nb1010', 'aes3500', 'elan', 'vfs301', 'vfs5011']) {
      const text = await readFile(`${captureDir(dev)}/capture.ioctl`, 'utf8');
      expect(parseIoctlRecording(text).length).toBeGreaterThan(10);
    }
  });
});
