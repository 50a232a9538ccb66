import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StationAdmin } from '../../auth/station-admin.js';

/** What the station-admin routes (admin.ts, admin-peers.ts) share: document tags, the guard, the plain error body. */
export const ADMIN_TAGS = ['station admin'];
/** Bearer scheme of the document; here the token is a station-admin session token (POST /session), never an application JWT. */
export const ADMIN_SECURITY = [{ bearerAuth: [] }];
export const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });

/** The bearer token of a request, or undefined. */
export const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

/** The plain error body `{ statusCode, error, code, message }` with `status`. */
export function plain(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  const reason: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 409: 'Conflict' };
  return reply.status(status).send({ statusCode: status, error: reason[status] ?? 'Error', code, message });
}

/** onRequest hook: 401 UNAUTHORIZED unless the request carries a live station-admin session. */
export const adminGuard = (admin: StationAdmin) => async (request: FastifyRequest, reply: FastifyReply) => {
  if (!admin.hasSession(bearerOf(request))) return plain(reply, 401, 'UNAUTHORIZED', 'A station-admin session is required');
};
