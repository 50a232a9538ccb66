import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
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
 *                                  (used by the kiosk page, renderer/src/readers.ts)
 *   GET  /ws (WebSocket upgrade) -> one text message `<ReaderEvent JSON>` per event (attached,
 *                                  detached, capture-started, finger-on, finger-off, captured,
 *                                  error); the same events as /events, for headless clients. Messages
 *                                  from the client are ignored. An upgrade with a non-loopback
 *                                  Origin is refused with 403 (the `ws` package, RFC 6455).
 *
 * The kiosk UI finds it through `?readers=<url>` (remembered in localStorage).
 */
export interface ReaderBridge {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK_ORIGIN = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

const STATUS_BY_CODE: Record<string, number> = {
  NOT_FOUND: 404, BUSY: 409, TIMEOUT: 408, CANCELLED: 499, NO_IMAGE: 422, DISCONNECTED: 410, PERMISSION: 403, PROTOCOL: 502, RETRY: 422, IO: 500,
};

/** Starts the bridge on `host:port` (default 127.0.0.1, ephemeral port). */
export async function startReaderBridge(manager: ReaderManager, options: { host?: string; port?: number } = {}): Promise<ReaderBridge> {
  const clients = new Set<http.ServerResponse>();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const unsubscribe = manager.onEvent((event) => {
    const json = JSON.stringify(event);
    for (const res of clients) res.write(`data: ${json}\n\n`);
    for (const ws of sockets.clients) if (ws.readyState === ws.OPEN) ws.send(json);
  });
  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    if (origin && LOOPBACK_ORIGIN.test(origin)) {
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

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const origin = req.headers.origin;
    if (url.pathname !== '/ws' || (origin && !LOOPBACK_ORIGIN.test(origin))) {
      socket.end(`HTTP/1.1 ${url.pathname !== '/ws' ? '404 Not Found' : '403 Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      ws.on('error', () => ws.terminate());
      sockets.emit('connection', ws, req);
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    async close() {
      unsubscribe();
      for (const res of clients) res.end();
      clients.clear();
      for (const ws of sockets.clients) ws.close(1001, 'bridge closing');
      sockets.close();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
