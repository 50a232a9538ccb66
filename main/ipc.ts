import { isStationUrl } from './csp.js';
import type { ElectronLike } from './electron-like.js';
import type { StationSupervisor } from './station-supervisor.js';
import { IPC, type CapturedFinger, type ReaderEvent, type ReaderInfo } from './types.js';

/** The reader side main/ needs (native/ReaderManager satisfies it). */
export interface ReaderSource {
  list(): ReaderInfo[];
  capture(readerId: string): Promise<{ readerId: string; bytes: Uint8Array; mime: string; dpi: number; capturedAt: string }>;
  onEvent(listener: (event: ReaderEvent) => void): () => void;
  /** Cancels a running capture; returns whether one was running (absent: nothing to cancel). */
  cancel?(readerId: string): boolean;
}

/** Anything with a sender frame URL (IpcMainInvokeEvent). */
interface SenderEvent {
  senderFrame: { url: string } | null;
}

/**
 * Registers the invoke handlers behind `window.biostation`. Every call is checked to come from a
 * frame on the station origin; others are rejected. Returns a function removing the handlers.
 */
export function registerIpc(
  ipcMain: ElectronLike['ipcMain'],
  deps: { supervisor: Pick<StationSupervisor, 'status'>; readers: ReaderSource; getOrigin: () => string | null },
): () => void {
  const guard = <A extends unknown[], R>(fn: (...args: A) => R) =>
    (event: SenderEvent, ...args: A): R => {
      if (!isStationUrl(event.senderFrame?.url, deps.getOrigin())) throw new Error('IPC refused: untrusted sender');
      return fn(...args);
    };
  ipcMain.handle(IPC.stationStatus, guard(() => deps.supervisor.status()));
  ipcMain.handle(IPC.readersList, guard(() => deps.readers.list()));
  ipcMain.handle(
    IPC.readersCapture,
    guard(async (readerId: unknown): Promise<CapturedFinger> => {
      if (typeof readerId !== 'string' || readerId.length === 0 || readerId.length > 200) throw new Error('Invalid reader id');
      // Electron passes only an Error's message to the page: keep the reader's stable code in it.
      const image = await deps.readers.capture(readerId).catch((e: unknown) => {
        const code = (e as { code?: unknown }).code;
        throw new Error(typeof code === 'string' ? `${code}: ${(e as Error).message}` : (e as Error).message);
      });
      return {
        readerId: image.readerId,
        imageData: Buffer.from(image.bytes).toString('base64'),
        mime: image.mime,
        dpi: image.dpi,
        capturedAt: image.capturedAt,
      };
    }),
  );
  ipcMain.handle(
    IPC.readersCancel,
    guard((readerId: unknown): boolean => {
      if (typeof readerId !== 'string' || readerId.length === 0 || readerId.length > 200) throw new Error('Invalid reader id');
      return deps.readers.cancel?.(readerId) ?? false;
    }),
  );
  return () => {
    for (const channel of [IPC.stationStatus, IPC.readersList, IPC.readersCapture, IPC.readersCancel]) ipcMain.removeHandler(channel);
  };
}

/**
 * Pushes station status changes and reader events to the kiosk page. `getContents` returns the
 * window's webContents, or null when there is none. Returns the unsubscribe function.
 */
export function forwardEvents(
  deps: { supervisor: Pick<StationSupervisor, 'onStatus'>; readers: Pick<ReaderSource, 'onEvent'> },
  getContents: () => { send(channel: string, ...args: unknown[]): void; isDestroyed(): boolean } | null,
): () => void {
  const send = (channel: string, payload: unknown) => {
    const contents = getContents();
    if (contents && !contents.isDestroyed()) contents.send(channel, payload);
  };
  const offStatus = deps.supervisor.onStatus((status) => send(IPC.stationStatusChanged, status));
  const offReaders = deps.readers.onEvent((event) => send(IPC.readerEvent, event));
  return () => {
    offStatus();
    offReaders();
  };
}
