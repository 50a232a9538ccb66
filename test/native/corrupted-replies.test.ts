import { describe, expect, it } from 'vitest';
import { findDriver } from '../../native/drivers/index.js';
import { UsbFingerprintReader } from '../../native/usb-reader.js';
import { loadRecording } from '../../native/usb/recording.js';
import { ReplayTransport } from '../../native/usb/replay-transport.js';
import { ReaderError } from '../../native/reader.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/** Small seeded PRNG (mulberry32) so a failure names a reproducible case. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRIALS = Number(process.env.CORRUPT_TRIALS ?? 6);

/**
 * Every driver, fed recordings with one byte flipped in one device reply: the capture either
 * still yields an image or fails with a typed ReaderError; never a programming error (TypeError,
 * RangeError...) and never a hang (the capture's own timeout bounds a driver that keeps polling).
 */
describe.skipIf(!haveCaptures)('drivers on corrupted replies', () => {
  for (const dev of ['nb1010', 'aes3500', 'elan', 'upektc_img', 'vfs301', 'vfs5011']) {
    it(`${dev}: ${TRIALS} single-byte corruptions`, async () => {
      const base = await loadRecording(captureDir(dev));
      const driver = findDriver(base.device.vendorId, base.device.productId)!;
      const random = rng(0x5eed + dev.length);
      const outcomes: string[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const urbs = base.urbs.map((u) => ({ ...u }));
        const replies = urbs.map((u, i) => [u, i] as const).filter(([u]) => (u.endpoint & 0x80) !== 0 && u.data.length > 0);
        const [victim, index] = replies[Math.floor(random() * replies.length)]!;
        const at = Math.floor(random() * victim.data.length);
        victim.data = victim.data.slice();
        victim.data[at] ^= 1 << Math.floor(random() * 8);
        const reader = new UsbFingerprintReader({
          info: { id: `replay:${dev}`, name: dev, kind: 'replay', dpi: driver.dpi },
          driver,
          transport: () => new ReplayTransport({ ...base, urbs }),
        });
        const where = `${dev} trial ${trial}: URB ${index} byte ${at}`;
        try {
          const image = await reader.capture({ timeoutMs: 4000 });
          expect(image.mime, where).toBe('image/png');
          outcomes.push('image');
        } catch (e) {
          expect(e, where).toBeInstanceOf(ReaderError);
          expect((e as Error).message, where).not.toMatch(/TypeError|RangeError|undefined|Cannot read|is not a function/);
          outcomes.push((e as ReaderError).code);
        }
      }
      expect(outcomes).toHaveLength(TRIALS);
    }, 120_000);
  }
});
