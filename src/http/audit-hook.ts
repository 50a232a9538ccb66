import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';

const BIOMETRIC_PREFIX = /^\/api\/v1\/services\/(face|finger|liveness|ocr)\//;
/** Routes that read no biometric data (counts and id lists): not audited. */
const NOT_AUDITED = /\/(count|list)$|\/templates\/count\/:ext_id$/;

/**
 * The audit operation of a route, e.g. `POST /api/v1/services/face/:ext_id/verify` -> face.verify,
 * `PATCH .../face/:ext_id` -> face.update, `DELETE` -> face.delete, `PUT /api/v1/persons/:ext_id/document`
 * -> document.put; undefined for routes that are not biometric operations.
 */
export function auditOperationOf(method: string, routeUrl: string | undefined): string | undefined {
  if (!routeUrl) return undefined;
  // The person's document record (identity data kept with the enrollment): document.put / .get / .delete.
  if (routeUrl === '/api/v1/persons/:ext_id/document') return `document.${method.toLowerCase()}`;
  const m = BIOMETRIC_PREFIX.exec(routeUrl);
  if (!m || NOT_AUDITED.test(routeUrl)) return undefined;
  const rest = routeUrl.slice(m[0].length).split('/').filter((s) => s && !s.startsWith(':'));
  if (rest.length === 0) return `${m[1]}.${method === 'DELETE' ? 'delete' : method === 'PATCH' ? 'update' : method.toLowerCase()}`;
  return `${m[1]}.${rest.join('.')}`;
}

interface Captured {
  resultCode: number | null;
  identified: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auditCapture?: Captured;
  }
}

/** The result code (and an identified ext_id) of a JSON answer, read from the serialized payload. */
function capture(payload: unknown): Captured {
  if (typeof payload !== 'string' || payload.length > 65_536 || payload[0] !== '{') return { resultCode: null, identified: null };
  try {
    const body = JSON.parse(payload) as { result?: { code?: unknown }; code?: unknown; ExternalID?: unknown };
    const code = typeof body.result?.code === 'number' ? body.result.code : typeof body.code === 'number' ? body.code : null;
    return { resultCode: code, identified: typeof body.ExternalID === 'string' ? body.ExternalID : null };
  } catch {
    return { resultCode: null, identified: null };
  }
}

/**
 * Records every biometric operation in the audit trail (issue #18, finding 5): application,
 * operation, ext_id (of the path, or the one identified) as configured, HTTP status, result code,
 * time and request id. Requests refused before authentication are recorded with no application.
 */
export function registerAudit(app: FastifyInstance, audit: AuditLog): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (auditOperationOf(request.method, request.routeOptions.url)) request.auditCapture = capture(payload);
    return payload;
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply) => {
    const operation = auditOperationOf(request.method, request.routeOptions.url);
    if (!operation) return;
    const applicationId = request.tenant?.applicationId ?? null;
    const params = request.params as { ext_id?: unknown } | undefined;
    const given = typeof params?.ext_id === 'string' ? params.ext_id : request.auditCapture?.identified;
    try {
      audit.record({
        at: new Date().toISOString(),
        requestId: String(request.id),
        applicationId,
        operation,
        extId: await audit.extIdFor(applicationId, given),
        httpStatus: reply.statusCode,
        resultCode: request.auditCapture?.resultCode ?? null,
      });
    } catch (e) {
      request.log.error({ err: e }, 'audit entry not recorded');
    }
  });
}
