import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ReaderError,
  type CaptureOptions,
  type FingerImage,
  type FingerprintReader,
  type ReaderInfo,
  type ReaderProvider,
} from './reader.js';

const MIME_BY_EXT: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pgm': 'image/x-portable-graymap',
};

/** Image files of a folder that a virtual reader can serve, sorted by name. */
export async function listImageFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names.filter((n) => MIME_BY_EXT[path.extname(n).toLowerCase()] !== undefined).sort();
}

/** Options of a virtual reader. */
export interface VirtualReaderOptions {
  /** Folder whose image files are served in name order, cycling. */
  dir: string;
  id?: string;
  name?: string;
  dpi?: number;
  /** Simulated time to place the finger, in milliseconds. Default 0. */
  delayMs?: number;
}

/**
 * A file-backed fingerprint reader: each capture returns the next image of a folder (name order,
 * wrapping around), so tests and demos run without hardware. The folder is re-read on every capture,
 * so files may be dropped in while it runs.
 */
export class VirtualReader implements FingerprintReader {
  readonly info: ReaderInfo;
  private readonly dir: string;
  private readonly delayMs: number;
  private next = 0;
  private opened = false;
  private busy = false;

  constructor(options: VirtualReaderOptions) {
    this.dir = options.dir;
    this.delayMs = options.delayMs ?? 0;
    const base = path.basename(options.dir);
    this.info = {
      id: options.id ?? `virtual:${base}`,
      name: options.name ?? `Virtual reader (${base})`,
      kind: 'virtual',
      dpi: options.dpi ?? 500,
    };
  }

  /** Checks that the folder exists. */
  async open(): Promise<void> {
    const s = await stat(this.dir).catch(() => undefined);
    if (!s?.isDirectory()) throw new ReaderError('NOT_FOUND', `Folder not found: ${this.dir}`);
    this.opened = true;
  }

  /** Returns the next image file of the folder. Throws NO_IMAGE when it holds none, BUSY when a capture runs. */
  async capture(options: CaptureOptions = {}): Promise<FingerImage> {
    // Claimed before the first await: two captures racing through open() must not both get in.
    if (this.busy) throw new ReaderError('BUSY', 'A capture is already running on this reader');
    this.busy = true;
    try {
      if (!this.opened) await this.open();
      await waitFor(Math.min(this.delayMs, options.timeoutMs ?? 30_000), options.signal);
      if (this.delayMs > (options.timeoutMs ?? 30_000)) throw new ReaderError('TIMEOUT', 'No finger was placed in time');
      const files = await listImageFiles(this.dir);
      if (files.length === 0) throw new ReaderError('NO_IMAGE', `No image files in ${this.dir}`);
      const file = files[this.next % files.length]!;
      this.next = (this.next + 1) % files.length;
      const bytes = await readFile(path.join(this.dir, file));
      return {
        readerId: this.info.id,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        mime: MIME_BY_EXT[path.extname(file).toLowerCase()]!,
        dpi: this.info.dpi,
        capturedAt: new Date().toISOString(),
      };
    } finally {
      this.busy = false;
    }
  }

  /** Nothing to release; marks the reader closed. */
  async close(): Promise<void> {
    this.opened = false;
  }
}

function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new ReaderError('CANCELLED', 'Capture cancelled'));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new ReaderError('CANCELLED', 'Capture cancelled'));
    });
  });
}

/**
 * Hot-plug provider over a folder: a folder holding images directly is one reader; otherwise each
 * sub-folder holding images is one reader (`virtual:<sub-folder>`). Creating or deleting a
 * sub-folder attaches or detaches a reader at the manager's next scan.
 */
export function virtualReaderProvider(root: string, dpi = 500): ReaderProvider {
  return {
    async scan() {
      const s = await stat(root).catch(() => undefined);
      if (!s?.isDirectory()) return [];
      const dirs = (await listImageFiles(root)).length > 0 ? [root] : await subDirs(root);
      const found = [];
      for (const dir of dirs) {
        if ((await listImageFiles(dir)).length === 0) continue;
        const reader = new VirtualReader({ dir, dpi });
        found.push({ info: reader.info, create: () => new VirtualReader({ dir, dpi }) });
      }
      return found;
    },
  };
}

async function subDirs(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(root, e.name)).sort();
}
