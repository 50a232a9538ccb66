/**
 * Fingerprint readers as the UI sees them: through `window.biostation` in the Electron kiosk (IPC),
 * or through the headless reader bridge (native/http-bridge.ts) whose URL comes from `?readers=`
 * (remembered in localStorage). Without either, the UI offers upload only.
 */

export interface ReaderInfo {
  id: string;
  name: string;
  kind: 'virtual' | 'usb';
  dpi: number;
}

export interface CapturedFinger {
  readerId: string;
  imageData: string;
  mime: string;
  dpi: number;
  capturedAt: string;
}

export type ReaderEvent =
  | { type: 'attached'; reader: ReaderInfo }
  | { type: 'detached'; readerId: string }
  | { type: 'capture-started'; readerId: string }
  | { type: 'captured'; readerId: string; capturedAt: string }
  | { type: 'error'; readerId: string; code: string; message: string };

export interface StationStatus {
  state: 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';
  url: string | null;
  restarts: number;
  lastError: string | null;
  since: string;
}

/** The preload API (main/types.ts BiostationBridge), repeated here: the renderer imports nothing from main/. */
export interface BiostationBridge {
  readonly isKiosk: true;
  stationStatus(): Promise<StationStatus>;
  onStationStatus(listener: (status: StationStatus) => void): () => void;
  listReaders(): Promise<ReaderInfo[]>;
  capture(readerId: string): Promise<CapturedFinger>;
  onReaderEvent(listener: (event: ReaderEvent) => void): () => void;
}

declare global {
  interface Window {
    biostation?: BiostationBridge;
  }
}

export interface ReaderClient {
  list(): Promise<ReaderInfo[]>;
  capture(readerId: string): Promise<CapturedFinger>;
  onEvent(listener: (event: ReaderEvent) => void): () => void;
}

function bridgeUrl(): string | null {
  const fromQuery = new URLSearchParams(location.search).get('readers');
  if (fromQuery) localStorage.setItem('biostation.readers', fromQuery);
  return fromQuery ?? localStorage.getItem('biostation.readers');
}

/**
 * A reader failure with a stable code: the bridge's ReaderErrorCode (NOT_FOUND when the reader was
 * unplugged, BUSY, TIMEOUT, NO_IMAGE, IO, ...) or UNREACHABLE when the reader service does not answer.
 */
export class ReaderFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReaderFailure';
  }
}

function httpClient(base: string): ReaderClient {
  const request = async (path: string, init?: RequestInit): Promise<Response> => {
    try {
      return await fetch(`${base}${path}`, init);
    } catch (e) {
      throw new ReaderFailure('UNREACHABLE', (e as Error).message);
    }
  };
  return {
    async list() {
      const res = await request('/readers');
      if (!res.ok) throw new ReaderFailure('IO', `HTTP ${res.status}`);
      return ((await res.json()) as { readers: ReaderInfo[] }).readers;
    },
    async capture(readerId) {
      const res = await request(`/readers/${encodeURIComponent(readerId)}/capture`, { method: 'POST' });
      const body = (await res.json().catch(() => ({}))) as CapturedFinger & { error?: string; message?: string };
      if (!res.ok) throw new ReaderFailure(body.error ?? 'IO', body.message ?? `HTTP ${res.status}`);
      return body;
    },
    onEvent(listener) {
      const source = new EventSource(`${base}/events`);
      source.onmessage = (m) => listener(JSON.parse(String(m.data)) as ReaderEvent);
      return () => source.close();
    },
  };
}

const none: ReaderClient = { list: async () => [], capture: () => Promise.reject(new Error('no reader')), onEvent: () => () => undefined };

let client: ReaderClient | null = null;
/** The reader client of this page (kiosk IPC, headless bridge, or none), created once. */
export function readerClient(): ReaderClient {
  if (client) return client;
  const bridge = window.biostation;
  const url = bridgeUrl();
  client = bridge
    ? { list: () => bridge.listReaders(), capture: (id) => bridge.capture(id), onEvent: (l) => bridge.onReaderEvent(l) }
    : url
      ? httpClient(url.replace(/\/$/, ''))
      : none;
  return client;
}
