/**
 * Preload of the kiosk window. It runs sandboxed: Electron wraps it as
 * `(function (require, process, exports, module, ...) { ... })` where `require` knows only
 * `electron` (and a few built-ins), so this file imports nothing else at run time (types come
 * through `import()` type expressions) and exports nothing. It exposes the minimal typed API
 * `window.biostation` (BiostationBridge in types.ts); nothing of Node or ipcRenderer reaches the page.
 */
{
  type Bridge = import('./types.js').BiostationBridge;
  type StationStatus = import('./types.js').StationStatus;
  type ReaderInfo = import('./types.js').ReaderInfo;
  type ReaderEvent = import('./types.js').ReaderEvent;
  type CapturedFinger = import('./types.js').CapturedFinger;
  type IpcRendererLike = {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
    removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  };

  // Channel names: must equal IPC in types.ts (test/main/ipc-preload.test.ts checks them).
  const CHANNELS = {
    stationStatus: 'biostation:station-status',
    stationStatusChanged: 'biostation:station-status-changed',
    readersList: 'biostation:readers-list',
    readersCapture: 'biostation:readers-capture',
    readersCancel: 'biostation:readers-cancel',
    readerEvent: 'biostation:reader-event',
  } as const;

  const { contextBridge, ipcRenderer } = require('electron') as {
    contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
    ipcRenderer: IpcRendererLike;
  };

  // Listeners get only the payload, never the IPC event (which would leak `sender`).
  const subscribe = <T,>(channel: string, listener: (payload: T) => void): (() => void) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as T);
    ipcRenderer.on(channel, wrapped);
    return () => void ipcRenderer.removeListener(channel, wrapped);
  };

  const bridge: Bridge = Object.freeze({
    isKiosk: true as const,
    stationStatus: () => ipcRenderer.invoke(CHANNELS.stationStatus) as Promise<StationStatus>,
    onStationStatus: (listener: (s: StationStatus) => void) => subscribe(CHANNELS.stationStatusChanged, listener),
    listReaders: () => ipcRenderer.invoke(CHANNELS.readersList) as Promise<ReaderInfo[]>,
    capture: (readerId: string) => ipcRenderer.invoke(CHANNELS.readersCapture, String(readerId)) as Promise<CapturedFinger>,
    cancelCapture: (readerId: string) => ipcRenderer.invoke(CHANNELS.readersCancel, String(readerId)) as Promise<boolean>,
    onReaderEvent: (listener: (e: ReaderEvent) => void) => subscribe(CHANNELS.readerEvent, listener),
  });
  contextBridge.exposeInMainWorld('biostation', bridge);
}
