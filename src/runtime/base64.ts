import { BiostationError } from '../runtime/errors.js';

// Plain character-class loops only: a quantified group (`(?:[...]{4})*`) makes V8's regexp engine
// recurse once per group and overflows the stack on inputs of a few megabytes (issue #18, finding 3).
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL_CHARS = /^[A-Za-z0-9_-]*$/;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,/;

/** Standard alphabet with RFC 4648 padding rules: `=` only at the end, padded length a multiple of 4, never a lone 6-bit tail. */
export function isStandardBase64(s: string): boolean {
  if (!BASE64_CHARS.test(s)) return false;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return padding > 0 ? s.length % 4 === 0 : s.length % 4 !== 1;
}

/**
 * Decodes a base64 (RFC 4648 section 4, or the URL-safe alphabet of section 5) field. Whitespace
 * and a `data:<mime>;base64,` prefix are tolerated; anything else that is not base64 is refused
 * rather than silently skipped, as Node's decoder would. Linear time and constant stack in the
 * length of the field.
 * @param maxBytes when given, a field that would decode to more bytes is refused before decoding.
 * @throws BiostationError INVALID_BASE64 naming the field, also for an empty result;
 *   IMAGE_TOO_LARGE when the decoded length would exceed maxBytes.
 */
export function decodeBase64Field(value: string, field: string, maxBytes?: number): Uint8Array {
  const compact = value.replace(DATA_URL, '').replace(/\s+/g, '');
  const standard = isStandardBase64(compact);
  if (!standard && !BASE64URL_CHARS.test(compact)) throw new BiostationError('INVALID_BASE64', `${field} is not valid base64`);
  if (maxBytes !== undefined && Math.floor((compact.replace(/=+$/, '').length * 3) / 4) > maxBytes) {
    throw new BiostationError('IMAGE_TOO_LARGE', `${field} holds more than ${maxBytes} bytes`);
  }
  const bytes = Buffer.from(compact, standard ? 'base64' : 'base64url');
  if (bytes.length === 0) throw new BiostationError('INVALID_BASE64', `${field} is empty`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
