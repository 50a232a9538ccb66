import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { crc16Xmodem, upekFrame } from '../../native/drivers/upektc_img.js';
import { registerWriteTransfers } from '../../native/drivers/aes3500.js';
import sharp from 'sharp';
import { comparePixels, decodeGray, encodePng, replayRecording } from '../../native/replay.js';
import { loadRecording } from '../../native/usb/recording.js';
import { ReplayTransport } from '../../native/usb/replay-transport.js';
import { upektcImg } from '../../native/drivers/upektc_img.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/** Per device: expected image size, dpi, and whether the replay reproduces capture.png exactly. */
const DEVICES: Array<{ dev: string; width: number; height: number; dpi: number; maxMeanAbsDiff: number }> = [
  { dev: 'nb1010', width: 256, height: 180, dpi: 500, maxMeanAbsDiff: 0 },
  { dev: 'aes3500', width: 256, height: 256, dpi: 500, maxMeanAbsDiff: 0 },
  { dev: 'elan', width: 216, height: 235, dpi: 500, maxMeanAbsDiff: 0 },
  { dev: 'vfs301', width: 200, height: 214, dpi: 500, maxMeanAbsDiff: 0 },
  { dev: 'vfs5011', width: 160, height: 334, dpi: 500, maxMeanAbsDiff: 0 },
  { dev: 'upektc_img', width: 144, height: 384, dpi: 508, maxMeanAbsDiff: 0 },
];

describe.skipIf(!haveCaptures)('drivers replayed on the recorded sessions', () => {
  for (const d of DEVICES) {
    it(`${d.dev}: the image equals capture.png (mean absolute difference <= ${d.maxMeanAbsDiff})`, async () => {
      const result = await replayRecording(captureDir(d.dev));
      expect(result.driver.id).toBe(d.dev);
      expect(result.image).toMatchObject({ widthPx: d.width, heightPx: d.height, dpi: d.dpi });
      const reference = await decodeGray(await readFile(`${captureDir(d.dev)}/capture.png`));
      const diff = comparePixels(result.image, reference);
      expect(diff.meanAbsDiff).toBeLessThanOrEqual(d.maxMeanAbsDiff);
      if (d.maxMeanAbsDiff === 0) expect(diff.equalPixels).toBe(diff.totalPixels);
    });
  }

  it('upektc_img: a flipped byte in a recorded reply fails the CRC check with a typed error', async () => {
    const rec = await loadRecording(captureDir('upektc_img'));
    // The first image frame (inner command 0x2C) the device sent: flip one pixel byte.
    const frame = rec.urbs.find((u) => u.endpoint === 0x81 && u.data[4] === 0x00 && u.data[7] === 0x2c)!;
    frame.data = frame.data.slice();
    frame.data[30] ^= 0x01;
    const driver = upektcImg.create(new ReplayTransport(rec));
    await driver.open();
    await expect(driver.capture()).rejects.toMatchObject({ name: 'DriverProtocolError', code: 'PROTOCOL', message: expect.stringMatching(/CRC/) });
  });
});

describe('protocol helpers', () => {
  it('images are written as 8-bit grey PNGs carrying their dpi', async () => {
    const pixels = Uint8Array.from({ length: 12 * 5 }, (_, i) => i * 4);
    const png = await encodePng({ widthPx: 12, heightPx: 5, pixels, dpi: 508 });
    expect(await sharp(png).metadata()).toMatchObject({ width: 12, height: 5, channels: 1, density: 508, hasProfile: false });
    expect((await decodeGray(png)).pixels).toEqual(pixels);
  });

  it('UPEK frames carry the sequence nibble and a CRC-16/XMODEM the device accepted', () => {
    expect(crc16Xmodem(new TextEncoder().encode('123456789'))).toBe(0x31c3); // the CRC's check value
    // init_1 as recorded (PROTOCOLS.md §2.2): ...DA C1
    const init1 = upekFrame(Uint8Array.from([0x43, 0x69, 0x61, 0x6f, 0x04, 0x00, 0x0d, 0x01, 0x00, 0x46, 0, 0, 0, 0, 0, 0x01, 0x01, 0, 0, 0, 0, 0]), 0);
    expect(Buffer.from(init1.subarray(-2)).toString('hex')).toBe('dac1');
  });

  it('AuthenTec register writes split at register 0 and after 16 pairs', () => {
    const regs: Array<[number, number]> = [[0x80, 1], [0, 0], ...Array.from({ length: 18 }, (_, i) => [0x81 + i, i] as [number, number])];
    expect(registerWriteTransfers(regs).map((t) => t.length)).toEqual([2, 32, 4]);
  });
});
