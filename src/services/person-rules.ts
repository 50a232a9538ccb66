import { Type } from '@sinclair/typebox';

/**
 * What a person record may hold, whoever writes it: the API (src/http/schemas.ts) and a sync peer
 * (src/sync/wire.ts) check the same rules.
 */

/** The person's identifier: 1 to 128 characters of letters, digits and . _ @ : + - */
export const ExtId = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._@:+-]+$',
  description: 'Identifier of the person: 1 to 128 characters of letters, digits and . _ @ : + -',
});

/** Face templates (one per image) a person may hold: an enroll carries at most this many images. */
export const MAX_FACE_TEMPLATES = 10;

/** Largest base64 interchange template: ISO records are at most a few kB; 64 kB leaves room for many views. */
export const MAX_TEMPLATE_BASE64_CHARS = 90_000;

/** A finger position name, e.g. UNKNOWN, RIGHT_INDEX. */
export const FingerPosition = Type.String({ maxLength: 32, pattern: '^[A-Z_]+$', description: 'Finger position, e.g. UNKNOWN, RIGHT_INDEX' });
