import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { StationAdmin } from '../auth/station-admin.js';
import { sendError } from './errors.js';

/** Paths only a client on this machine may read: process metrics and the API documentation. */
export const LOOPBACK_ONLY_PREFIXES = ['/metrics', '/api/docs', '/api/openapi.json'];

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

const hasAdminSession = (request: FastifyRequest, admin: StationAdmin | undefined): boolean =>
  !!admin && admin.hasSession(/^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1]);

const isLoopbackOnlyPath = (url: string): boolean => {
  const p = url.split('?')[0];
  return LOOPBACK_ONLY_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
};

/**
 * Transport hardening of the HTTP server (issue #18, finding 7):
 * - security headers (helmet) on every answer, errors and 404s included: a Content-Security-Policy
 *   as strict as the kiosk page allows (its own meta policy: scripts from the station only,
 *   WebAssembly for capture, camera blobs), no framing, no MIME sniffing, no referrer, same-origin
 *   resource and opener policies; HSTS only when the station serves HTTPS;
 * - CORS stays closed: the station sends no Access-Control-Allow-* header, so browsers refuse
 *   cross-origin reads and preflights get no grant;
 * - /metrics and the API docs answer loopback clients, and elsewhere only a request with a live
 *   station-admin session (`Authorization: Bearer sas_...`, src/auth/station-admin.ts); others get
 *   404, as if absent. The peer address is the socket's: no proxy header is trusted.
 */
export async function registerSecurity(app: FastifyInstance, options: { https: boolean; stationAdmin?: StationAdmin }): Promise<void> {
  // Built once: @fastify/helmet called helmet(options) anew for every request (~12 us of option checks
  // and CSP assembly each); the headers are the same for every answer, so one middleware serves all.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        connectSrc: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isLoopbackOnlyPath(request.url) && !isLoopback(request.socket.remoteAddress) && !hasAdminSession(request, options.stationAdmin)) {
      return sendError(request, reply, 'ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
    }
  });
}
