import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReaderError } from './reader.js';
import type { ReaderManager } from './reader-manager.js';

/**
 * The headless way to reach readers (the Electron kiosk uses IPC instead): a loopback-only HTTP
 * server with CORS for loopback origins.
 *
 *   GET  /readers               -> 200 { readers: ReaderInfo[] }
 *   POST /readers/{id}/capture  -> 200 { readerId, imageData (base64), mime, dpi, capturedAt }
 *                                  4xx/5xx { error: ReaderErrorCode, message } (codes: STATUS_BY_CODE)
 *   DELETE /readers/{id}/capture -> 200 { cancelled: boolean } (the running capture fails with CANCELLED)
 *   GET  /events                -> text/event-stream, one `data: <ReaderEvent JSON>` per event
 *
 * The kiosk UI finds it through `?readers=<url>` (remembered in localStorage).
 */
export interface ReaderBridge {
  url: string;
  close(): Promise<void>;
}

const STATUS_BY_CODE: Record<string, number> = {
  NOT_FOUND: 404, BUSY: 409, TIMEOUT: 408, CANCELLED: 499, NO_IMAGE: 422, DISCONNECTED: 410, PERMISSION: 403, PROTOCOL: 502, RETRY: 422, IO: 500,
};

/** Starts the bridge on `host:port` (default 127.0.0.1, ephemeral port). */
export async function startReaderBridge(manager: ReaderManager, options: { host?: string; port?: number } = {}): Promise<ReaderBridge> {
  const clients = new Set<http.ServerResponse>();
  const unsubscribe = manager.onEvent((event) => {
    for (const res of clients) res.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    if (origin && /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
    }
    void handle(req, res).catch((e: unknown) => send(res, 500, { error: 'IO', message: String(e) }));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bridge');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/readers') return send(res, 200, { readers: manager.list() });
    if (req.method === 'GET' && url.pathname === '/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    const m = /^\/readers\/([^/]+)\/capture$/.exec(url.pathname);
    if (req.method === 'DELETE' && m) return send(res, 200, { cancelled: manager.cancel(decodeURIComponent(m[1]!)) });
    if (req.method === 'POST' && m) {
      try {
        const image = await manager.capture(decodeURIComponent(m[1]!));
        return send(res, 200, {
          readerId: image.readerId,
          imageData: Buffer.from(image.bytes).toString('base64'),
          mime: image.mime,
          dpi: image.dpi,
          capturedAt: image.capturedAt,
        });
      } catch (e) {
        const err = e instanceof ReaderError ? e : new ReaderError('IO', String(e));
        return send(res, STATUS_BY_CODE[err.code] ?? 500, { error: err.code, message: err.message });
      }
    }
    send(res, 404, { error: 'NOT_FOUND', message: 'No such route' });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    async close() {
      unsubscribe();
      for (const res of clients) res.end();
      clients.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
