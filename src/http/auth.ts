import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApplicationService } from '../auth/applications.js';
import type { TokenService } from '../auth/tokens.js';
import { BiostationError } from '../runtime/errors.js';
import type { Tenant } from '../services/tenant.js';
import type { TenantStoreProvider } from '../store/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer hook on every protected route; the only door to an application's data. */
    tenant?: Tenant;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

/**
 * The onRequest hook of protected routes: `Authorization: Bearer <JWT>` must carry a token this
 * station signed, not expired, for an application that exists and is not disabled, issued under
 * the application's current token generation (a rotated secret or a disable revokes older tokens
 * on the next request, also when the CLI changed the registry from another process). Otherwise 401.
 * On success the request's tenant (application + its store) is set.
 */
export function bearerAuth(tokens: TokenService, applications: ApplicationService, stores: TenantStoreProvider) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header.trim()) : null;
    if (!match) throw new BiostationError('UNAUTHORIZED', 'Missing or malformed bearer token');
    const claims = await tokens.verify(match[1]);
    if (!claims) throw new BiostationError('UNAUTHORIZED', 'Invalid or expired token');
    const app = await applications.findActive(claims.applicationId);
    if (!app) throw new BiostationError('UNAUTHORIZED', 'The application of this token is unknown or disabled');
    if (claims.generation !== (app.tokenGeneration ?? 0)) throw new BiostationError('UNAUTHORIZED', 'The token was revoked (the secret was rotated)');
    request.tenant = {
      applicationId: app.id,
      applicationName: app.name,
      store: await stores.forApplication(app.id),
      thresholds: { face: app.faceThreshold ?? undefined, finger: app.fingerThreshold ?? undefined, liveness: app.livenessThreshold ?? undefined },
      dedupPolicy: app.dedupPolicy,
    };
  };
}

/** The tenant of an authenticated request (routes behind bearerAuth only). */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new BiostationError('UNAUTHORIZED');
  return request.tenant;
}
