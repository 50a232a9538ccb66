import { BiostationError } from '../runtime/errors.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,/;

/**
 * Decodes a base64 (RFC 4648 section 4, or the URL-safe alphabet of section 5) field. Whitespace
 * and a `data:<mime>;base64,` prefix are tolerated; anything else that is not base64 is refused
 * rather than silently skipped, as Node's decoder would.
 * @throws BiostationError INVALID_BASE64 naming the field, also for an empty result.
 */
export function decodeBase64Field(value: string, field: string): Uint8Array {
  const compact = value.replace(DATA_URL, '').replace(/\s+/g, '');
  let bytes: Buffer;
  if (BASE64.test(compact)) bytes = Buffer.from(compact, 'base64');
  else if (BASE64URL.test(compact)) bytes = Buffer.from(compact, 'base64url');
  else throw new BiostationError('INVALID_BASE64', `${field} is not valid base64`);
  if (bytes.length === 0) throw new BiostationError('INVALID_BASE64', `${field} is empty`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
