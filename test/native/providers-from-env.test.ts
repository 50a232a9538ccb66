import { describe, expect, it } from 'vitest';
import { readerProvidersFromEnv } from '../../native/providers-from-env.js';
import { ReaderManager } from '../../native/reader-manager.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

describe('reader providers from the environment', () => {
  it('a libusb that cannot load is logged and the other readers still start', async () => {
    const logs: string[] = [];
    const providers = await readerProvidersFromEnv(
      { BIOSTATION_REPLAY_READERS: haveCaptures ? captureDir('nb1010') : '' },
      { log: (m) => logs.push(m), loadUsb: () => Promise.reject(new Error('libusb-1.0.so.0: cannot open shared object file')) },
    );
    expect(logs).toEqual([expect.stringMatching(/USB readers unavailable .*libusb-1\.0\.so\.0/)]);
    const manager = new ReaderManager({ providers, pollMs: 0 });
    await manager.start();
    expect(manager.list().map((r) => r.id)).toEqual(haveCaptures ? ['replay:nb1010'] : []);
    await manager.close();
  });

  it('BIOSTATION_USB_READERS=0 skips libusb', async () => {
    let loaded = false;
    const providers = await readerProvidersFromEnv({ BIOSTATION_USB_READERS: '0' }, { loadUsb: async () => ((loaded = true), Promise.reject(new Error('x'))) });
    expect(providers).toEqual([]);
    expect(loaded).toBe(false);
  });
});
