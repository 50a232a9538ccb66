/**
 * Preload of the kiosk window (sandboxed: CommonJS, may require only `electron`). Exposes the
 * minimal typed API `window.biostation` (see BiostationBridge in types.ts); nothing of Node or
 * ipcRenderer itself reaches the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { BiostationBridge, CapturedFinger, ReaderEvent, ReaderInfo, StationStatus } from './types.js';

/** Channel names; must equal IPC in types.ts (checked by test/main/preload.test.ts). */
export const CHANNELS = {
  stationStatus: 'biostation:station-status',
  stationStatusChanged: 'biostation:station-status-changed',
  readersList: 'biostation:readers-list',
  readersCapture: 'biostation:readers-capture',
  readerEvent: 'biostation:reader-event',
} as const;

/** The ipcRenderer methods the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** Builds the bridge over an ipcRenderer. Listeners get only the payload, never the IPC event. */
export function createBridge(ipc: IpcRendererLike): BiostationBridge {
  const subscribe = <T,>(channel: string, listener: (payload: T) => void): (() => void) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as T);
    ipc.on(channel, wrapped);
    return () => void ipc.removeListener(channel, wrapped);
  };
  return Object.freeze({
    isKiosk: true as const,
    stationStatus: () => ipc.invoke(CHANNELS.stationStatus) as Promise<StationStatus>,
    onStationStatus: (listener: (s: StationStatus) => void) => subscribe(CHANNELS.stationStatusChanged, listener),
    listReaders: () => ipc.invoke(CHANNELS.readersList) as Promise<ReaderInfo[]>,
    capture: (readerId: string) => ipc.invoke(CHANNELS.readersCapture, String(readerId)) as Promise<CapturedFinger>,
    onReaderEvent: (listener: (e: ReaderEvent) => void) => subscribe(CHANNELS.readerEvent, listener),
  });
}

contextBridge.exposeInMainWorld('biostation', createBridge(ipcRenderer));
