import { describe, expect, it } from 'vitest';
import { forwardEvents, registerIpc } from '../../main/ipc.js';
import { IPC } from '../../main/types.js';
import { ReaderManager } from '../../native/reader-manager.js';
import { replayReaderProvider } from '../../native/usb-provider.js';
import { captureDir, haveCaptures } from '../native/usb-datasets.js';
import { FakeIpcMain } from './fake-electron.js';

const ORIGIN = 'http://127.0.0.1:4567';
const supervisor = { status: () => ({ state: 'running' as const, url: ORIGIN, restarts: 0, lastError: null, since: 't' }), onStatus: () => () => undefined };

describe.skipIf(!haveCaptures)('kiosk IPC over USB readers (replayed)', () => {
  it('lists the reader with its driver, captures a PNG with its dpi, forwards finger events, and reports errors with their code', async () => {
    const manager = new ReaderManager({ providers: [replayReaderProvider([captureDir('upektc_img')])], pollMs: 0 });
    await manager.start();
    const ipc = new FakeIpcMain();
    registerIpc(ipc as never, { supervisor, readers: manager, getOrigin: () => ORIGIN });
    const sent: Array<[string, { type: string }]> = [];
    const off = forwardEvents({ supervisor, readers: manager }, () => ({ send: (c: string, p: unknown) => void sent.push([c, p as { type: string }]), isDestroyed: () => false }));

    expect(await ipc.invoke(IPC.readersList, `${ORIGIN}/`)).toEqual([
      expect.objectContaining({ id: 'replay:upektc_img', kind: 'replay', driver: 'upektc_img', usbId: '147e:2016', dpi: 508 }),
    ]);
    const captured = (await ipc.invoke(IPC.readersCapture, `${ORIGIN}/`, 'replay:upektc_img')) as { imageData: string; mime: string; dpi: number };
    expect(captured).toMatchObject({ mime: 'image/png', dpi: 508 });
    expect(Buffer.from(captured.imageData, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(sent.filter(([c]) => c === IPC.readerEvent).map(([, e]) => e.type)).toEqual(['capture-started', 'finger-on', 'finger-off', 'captured']);
    await expect(ipc.invoke(IPC.readersCapture, `${ORIGIN}/`, 'usb:gone')).rejects.toThrow(/^NOT_FOUND: No reader usb:gone/);
    off();
    await manager.close();
  });
});
