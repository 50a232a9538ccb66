import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Logger } from '../runtime/logger.js';
import { bearerAuth } from './auth.js';
import type { StationServices } from './context.js';
import { handleError, sendError } from './errors.js';
import { BiostationError } from '../runtime/errors.js';
import { openApiOptions } from './openapi.js';
import { registerSecurity } from './security.js';
import { registerAudit } from './audit-hook.js';
import { loadTls } from './tls.js';
import { registerJsonBodyParser } from './json-body.js';
import { IMAGE_LIMITS } from './image-limits.js';
import { MAX_IMAGE_BASE64_CHARS } from './schemas.js';
import { adminRoutes } from './routes/admin.js';
import { credentialRoutes } from './routes/credentials.js';
import { faceRoutes } from './routes/face.js';
import { fingerRoutes } from './routes/finger.js';
import { livenessRoutes } from './routes/liveness.js';
import { ocrRoutes } from './routes/ocr.js';
import { syncRoutes } from './routes/sync.js';
import { personDocumentRoutes } from './routes/person-document.js';
import { createMetrics, operationsRoutes } from './routes/operations.js';

/**
 * The station's HTTP server: every route of the interface spec, OpenAPI at /api/openapi.json
 * with a browsable page at /api/docs, operations endpoints, and the kiosk UI at / when built.
 */
export async function buildServer(services: StationServices, logger: Logger): Promise<FastifyInstance> {
  const tls = await loadTls(services.config);
  const app = Fastify({
    ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}),
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: services.config.jsonBodyLimitBytes,
    // Longer than any valid ext_id, so an over-long one meets the schema (400), not a missing route (404).
    routerOptions: { maxParamLength: 1024 },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    return503OnClosing: true,
    // Fastify's request log lines carry the URL, and so ext_ids (often a CPF): replaced below by lines
    // naming the route pattern at info level, the URL only at debug (issue #18, finding 5).
    disableRequestLogging: true,
    // Server time limits (issue #18, finding 4). Node checks them every connectionsCheckingInterval.
    requestTimeout: services.config.requestTimeoutMs,
    keepAliveTimeout: services.config.keepAliveTimeoutMs,
    http: {
      headersTimeout: services.config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, services.config.headersTimeoutMs / 2),
    },
  });

  if (tls) app.log.info({ certificate: tls.certFile, sha256: tls.fingerprint256 }, 'HTTPS on; peers pin this certificate fingerprint');
  await registerSecurity(app, { https: !!tls, stationAdmin: services.stationAdmin });

  if (services.audit) registerAudit(app, services.audit);
  const metrics = createMetrics();
  if (services.face.livenessGate) metrics.registry.registerMetric(services.face.livenessGate.counter);
  const unreadable = services.stores.unreadable;
  if (unreadable) {
    metrics.registry.registerMetric(unreadable.counter);
    unreadable.useLogger(app.log as Logger);
  }
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request completed');
    request.log.debug({ url: request.url }, 'request url');
    metrics.observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    lingerOnEarlyReply(request.raw, reply);
  });

  // JSON bodies as one Buffer; large ones of the image routes parsed and their images decoded on a worker (json-body.ts).
  registerJsonBodyParser(app, { maxChars: MAX_IMAGE_BASE64_CHARS, maxBytes: IMAGE_LIMITS.maxBytes });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/') && existsSync(`${services.config.uiDir}/index.html`)) {
      return reply.sendFile('index.html');
    }
    return sendError(request, reply, 'ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
  });

  await app.register(fastifySwagger, openApiOptions);
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new BiostationError('RATE_LIMITED', `Too many attempts; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 10 } });

  const authenticate = bearerAuth(services.tokens, services.applications, services.stores);
  await app.register(credentialRoutes(services));
  await app.register(faceRoutes(services, authenticate));
  await app.register(fingerRoutes(services, authenticate));
  await app.register(livenessRoutes(services, authenticate));
  await app.register(ocrRoutes(services, authenticate));
  await app.register(syncRoutes(services, authenticate));
  await app.register(personDocumentRoutes(authenticate));
  await app.register(operationsRoutes(services, metrics.registry));
  if (services.stationAdmin) await app.register(adminRoutes(services, services.stationAdmin));

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const uiAvailable = existsSync(services.config.uiDir);
  await app.register(fastifyStatic, { root: uiAvailable ? services.config.uiDir : process.cwd(), serve: uiAvailable, wildcard: false });
  return app;
}

/** How much of an unread body the station reads and discards after answering early, and for how long. */
const LINGER_MAX_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * Fastify answers a body it refuses (413, bad JSON) with `Connection: close` before reading the
 * rest of it; closing a socket with unread data makes the kernel send a reset, and the client
 * often loses the answer and sees a dead connection instead (issue #18, finding 4). Here the
 * station keeps the connection, reads and discards the rest of the body (at most LINGER_MAX_BYTES
 * within LINGER_MS, else it closes), then the connection serves the next request as usual.
 */
function lingerOnEarlyReply(raw: IncomingMessage, reply: FastifyReply): void {
  if (raw.complete || String(reply.getHeader('connection') ?? '').toLowerCase() !== 'close') return;
  reply.removeHeader('connection');
  let drained = 0;
  const timer = setTimeout(() => raw.socket?.destroy(), LINGER_MS).unref();
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_MAX_BYTES) raw.socket?.destroy();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
