import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  response: string;
  /** True when the server closed (or reset) the connection before `waitMs`. */
  closed: boolean;
  /** Milliseconds from connecting to close (or to giving up). */
  elapsedMs: number;
}

/**
 * Opens a TCP connection to `url`'s host and port, writes `chunks` (a number is a pause in
 * milliseconds), keeps the socket open without sending more, and collects what the server sends
 * until it closes the connection or `waitMs` has passed. For requests no HTTP client would send.
 */
export function rawExchange(url: string, chunks: Array<string | Buffer | number>, waitMs: number, opts: { stopWhen?: (response: string) => boolean } = {}): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: hostname, port: Number(port) });
    const parts: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response: Buffer.concat(parts).toString('latin1'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => {
      parts.push(d);
      if (opts.stopWhen?.(Buffer.concat(parts).toString('latin1'))) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (done) return;
        if (typeof c === 'number') await new Promise((r) => setTimeout(r, c));
        else socket.write(c);
      }
    });
  });
}

/** Status codes of the HTTP responses in a raw response text, in order. */
export const statusesOf = (response: string): number[] => [...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
