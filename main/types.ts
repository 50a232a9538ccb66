/**
 * Types shared by Electron main, the preload script and (structurally) the renderer. Runtime-free
 * except for the IPC channel names.
 */
import type { ReaderEvent, ReaderInfo } from '../native/reader.js';

export type { ReaderEvent, ReaderInfo };

/** What `startStation` needs (src/station.ts). */
export interface StationConfig {
  /** Folder of the station's databases and demo credentials. */
  dataDir: string;
  /** Listen address; the kiosk always uses loopback. */
  host: string;
  /** Listen port; 0 picks a free one. */
  port: number;
  /** Station master key (base64 of 32 bytes) supplied by the kiosk (safeStorage, master-key.ts); absent = the station's own source. */
  masterKey?: string;
}

/** A running station service, as returned by `startStation` (src/station.ts). */
export interface StationHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Stops listening and releases the stores. */
  close(): Promise<void>;
  /** Optional: settles when the service stops on its own (crash); the supervisor restarts it. */
  closed?: Promise<unknown>;
}

/** The signature of `startStation` exported by src/station.ts. */
export type StartStation = (config: StationConfig) => Promise<StationHandle>;

export type StationState = 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';

/** The station service as the kiosk sees it. */
export interface StationStatus {
  state: StationState;
  url: string | null;
  /** Restarts since the kiosk started. */
  restarts: number;
  lastError: string | null;
  /** ISO-8601 time of the last state change. */
  since: string;
}

/** One fingerprint image captured through IPC. */
export interface CapturedFinger {
  readerId: string;
  /** Base64 of the encoded image, ready for the finger API's `imageData`. */
  imageData: string;
  mime: string;
  dpi: number;
  capturedAt: string;
}

/** IPC channel names. The preload script repeats them (sandboxed preloads cannot import); a test keeps both equal. */
export const IPC = {
  stationStatus: 'biostation:station-status',
  stationStatusChanged: 'biostation:station-status-changed',
  readersList: 'biostation:readers-list',
  readersCapture: 'biostation:readers-capture',
  readersCancel: 'biostation:readers-cancel',
  readerEvent: 'biostation:reader-event',
} as const;

/** The API the preload exposes as `window.biostation`. */
export interface BiostationBridge {
  /** Always true: lets the UI tell the kiosk from a plain browser. */
  readonly isKiosk: true;
  stationStatus(): Promise<StationStatus>;
  onStationStatus(listener: (status: StationStatus) => void): () => void;
  listReaders(): Promise<ReaderInfo[]>;
  /** Captures one fingerprint; rejects with the reader's error message. */
  capture(readerId: string): Promise<CapturedFinger>;
  /** Cancels the capture running on the reader (that capture rejects with CANCELLED); resolves whether one was running. */
  cancelCapture(readerId: string): Promise<boolean>;
  onReaderEvent(listener: (event: ReaderEvent) => void): () => void;
}
