import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { forwardEvents, registerIpc, type ReaderSource } from '../../main/ipc.js';
import { IPC, type ReaderEvent, type StationStatus } from '../../main/types.js';
import { FakeIpcMain } from './fake-electron.js';

/**
 * Runs main/preload.cts the way Electron runs a sandboxed preload: compiled to CommonJS as the build
 * does, then called as `(require, process, exports, module)` with a `require` that knows only
 * `electron` (here a fake), so a stray import of a local or Node module fails the test. Returns
 * what it exposed and the IPC calls it made.
 */
function runPreload() {
  const source = readFileSync(fileURLToPath(new URL('../../main/preload.cts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: 'preload.cts',
    compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 },
  });
  const exposed: Record<string, any> = {};
  const invoked: unknown[][] = [];
  const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
  const fakeElectron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api) },
    ipcRenderer: {
      invoke: async (...a: unknown[]) => (invoked.push(a), 'ok'),
      on: (channel: string, l: (event: unknown, payload: unknown) => void) => listeners.set(channel, l),
      removeListener: (channel: string) => listeners.delete(channel),
    },
  };
  const required: string[] = [];
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`sandboxed preload cannot require ${name}`);
    return fakeElectron;
  };
  const exports = {};
  new Function('require', 'process', 'exports', 'module', outputText)(sandboxRequire, { env: {} }, exports, { exports });
  return { bridge: exposed.biostation, exposedKeys: Object.keys(exposed), invoked, listeners, required };
}

const ORIGIN = 'http://127.0.0.1:4567';
const status: StationStatus = { state: 'running', url: ORIGIN, restarts: 0, lastError: null, since: '2026-01-01T00:00:00Z' };

function fakeReaders(): ReaderSource & { emit(e: ReaderEvent): void } {
  const listeners = new Set<(e: ReaderEvent) => void>();
  return {
    list: () => [{ id: 'virtual:a', name: 'A', kind: 'virtual', dpi: 500 }],
    capture: async (readerId) => ({ readerId, bytes: new Uint8Array([1, 2, 3]), mime: 'image/png', dpi: 500, capturedAt: 't' }),
    onEvent: (l) => (listeners.add(l), () => listeners.delete(l)),
    cancel: (readerId) => readerId === 'virtual:a',
    emit: (e) => listeners.forEach((l) => l(e)),
  };
}

describe('IPC handlers', () => {
  it('answer the station page: status, readers, capture as base64', async () => {
    const ipc = new FakeIpcMain();
    registerIpc(ipc as never, { supervisor: { status: () => status }, readers: fakeReaders(), getOrigin: () => ORIGIN });
    expect(await ipc.invoke(IPC.stationStatus, `${ORIGIN}/`)).toEqual(status);
    expect(await ipc.invoke(IPC.readersList, `${ORIGIN}/#/enroll`)).toHaveLength(1);
    expect(await ipc.invoke(IPC.readersCapture, `${ORIGIN}/`, 'virtual:a')).toEqual({
      readerId: 'virtual:a',
      imageData: 'AQID',
      mime: 'image/png',
      dpi: 500,
      capturedAt: 't',
    });
  });

  it('refuse other senders and bad arguments', async () => {
    const ipc = new FakeIpcMain();
    registerIpc(ipc as never, { supervisor: { status: () => status }, readers: fakeReaders(), getOrigin: () => ORIGIN });
    await expect(ipc.invoke(IPC.stationStatus, 'https://evil.example/')).rejects.toThrow(/untrusted sender/);
    await expect(ipc.invoke(IPC.readersList, 'data:text/html,x')).rejects.toThrow(/untrusted sender/);
    await expect(ipc.invoke(IPC.readersCapture, `${ORIGIN}/`, 42)).rejects.toThrow(/Invalid reader id/);
  });

  it('are removed by the returned disposer', () => {
    const ipc = new FakeIpcMain();
    const dispose = registerIpc(ipc as never, { supervisor: { status: () => status }, readers: fakeReaders(), getOrigin: () => ORIGIN });
    expect(ipc.handlers.size).toBe(4);
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('push status changes and reader events to the page while it lives', () => {
    const readers = fakeReaders();
    let onStatus: (s: StationStatus) => void = () => undefined;
    const sent: unknown[][] = [];
    let destroyed = false;
    const off = forwardEvents(
      { supervisor: { onStatus: (l) => ((onStatus = l), () => undefined) }, readers },
      () => ({ send: (...a: unknown[]) => void sent.push(a), isDestroyed: () => destroyed }),
    );
    onStatus(status);
    readers.emit({ type: 'detached', readerId: 'virtual:a' });
    expect(sent).toEqual([
      [IPC.stationStatusChanged, status],
      [IPC.readerEvent, { type: 'detached', readerId: 'virtual:a' }],
    ]);
    destroyed = true;
    readers.emit({ type: 'detached', readerId: 'virtual:b' });
    expect(sent).toHaveLength(2);
    off();
  });
});

describe('preload bridge', () => {
  it('requires only electron and exposes only window.biostation, frozen', () => {
    const { bridge, exposedKeys, required } = runPreload();
    expect(required).toEqual(['electron']);
    expect(exposedKeys).toEqual(['biostation']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(bridge.isKiosk).toBe(true);
  });

  it('invokes the same channels as main and hands listeners only the payload', async () => {
    const { bridge, invoked, listeners } = runPreload();
    await bridge.stationStatus();
    await bridge.listReaders();
    await bridge.capture('virtual:a');
    await bridge.cancelCapture('virtual:a');
    expect(invoked).toEqual([[IPC.stationStatus], [IPC.readersList], [IPC.readersCapture, 'virtual:a'], [IPC.readersCancel, 'virtual:a']]);
    const got: unknown[] = [];
    const off = bridge.onReaderEvent((e: unknown) => got.push(e));
    const offStatus = bridge.onStationStatus((s: unknown) => got.push(s));
    expect([...listeners.keys()].sort()).toEqual([IPC.readerEvent, IPC.stationStatusChanged].sort());
    listeners.get(IPC.readerEvent)!({ sender: 'secret' }, { type: 'detached', readerId: 'x' });
    expect(got).toEqual([{ type: 'detached', readerId: 'x' }]);
    off();
    offStatus();
    expect(listeners.size).toBe(0);
  });
});
