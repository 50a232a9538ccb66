import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import client from 'prom-client';
import type { StationServices } from '../context.js';

/**
 * /health (liveness of the process), /ready (engines loaded, 503 while any enabled engine is still
 * loading or failed) and /metrics (Prometheus text format). No authentication: they carry no data.
 */
export function operationsRoutes(services: StationServices, registry: client.Registry): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
      async () => ({ status: 'ok' as const }));

    const EngineStatus = Type.Union([Type.Literal('disabled'), Type.Literal('loading'), Type.Literal('ready'), Type.Literal('failed')]);
    const Ready = Type.Object({ ready: Type.Boolean(), engines: Type.Object({ face: EngineStatus, finger: EngineStatus, ocr: EngineStatus }) });
    app.get('/ready', { schema: { tags: ['operations'], summary: 'Every enabled engine is loaded', response: { 200: Ready, 503: Ready } } },
      async (_request, reply) => {
        const engines = {
          face: services.engines.face.status,
          finger: services.engines.finger.status,
          ocr: services.engines.ocr.status,
        };
        const ready = Object.values(engines).every((s) => s === 'ready' || s === 'disabled');
        return reply.status(ready ? 200 : 503).send({ ready, engines });
      });

    app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics', hide: false } }, async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()));
  };
}

/** Registry with the process's default metrics and the HTTP request metrics recorded by the server. */
export function createMetrics(): { registry: client.Registry; observe: (route: string, method: string, status: number, seconds: number) => void } {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'biostation_' });
  const duration = new client.Histogram({
    name: 'biostation_http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    observe: (route, method, status, seconds) => duration.observe({ route, method, status: String(status) }, seconds),
  };
}
