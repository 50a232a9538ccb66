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
 * Decodes `s` when it is plain standard base64 (what every encoder writes: the standard alphabet
 * only, no whitespace, `=` padding at most at the end, optional), else undefined. Native code
 * only, and no second copy of the text: Node's decoder skips any character outside the alphabet
 * and stops at the first `=`, so the decoded length falls short of the one the text's length
 * implies exactly when a character was skipped or a `=` came early (for payload lengths
 * 4m, 4m+2 and 4m+3, every skipped character costs at least one byte; 4m+1 is never valid).
 * Characters beyond ASCII (which a decoder could truncate to an alphabet byte) and the URL-safe
 * alphabet's `-` and `_` (Node accepts both alphabets in one text) are left to the slow path.
 * About 0.5 ms per MB on top of the decoding itself, where the character-class regexp of
 * isStandardBase64 costs ~4 ms per MB on the main thread (issue #18: 3 MB image bodies).
 */
function decodePlainStandard(s: string): Buffer | undefined {
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const payload = s.length - padding;
  if (payload % 4 === 1 || (padding > 0 && s.length % 4 !== 0)) return undefined;
  if (Buffer.byteLength(s, 'utf8') !== s.length || s.includes('-') || s.includes('_')) return undefined;
  const bytes = Buffer.from(s, 'base64');
  return bytes.length === Math.floor((payload * 3) / 4) ? bytes : undefined;
}

/**
 * Decodes a base64 (RFC 4648 section 4, or the URL-safe alphabet of section 5) field. Whitespace
 * and a `data:<mime>;base64,` prefix are tolerated; anything else that is not base64 is refused
 * rather than silently skipped, as Node's decoder would. Linear time and constant stack in the
 * length of the field. Plain standard base64 (the usual case) is checked in native code
 * (decodePlainStandard); anything else (whitespace, the URL-safe alphabet, a data URL's text)
 * goes through the character-class checks.
 * @param maxBytes when given, a field that would decode to more bytes is refused before decoding.
 * @throws BiostationError INVALID_BASE64 naming the field, also for an empty result;
 *   IMAGE_TOO_LARGE when the decoded length would exceed maxBytes.
 */
export function decodeBase64Field(value: string, field: string, maxBytes?: number): Uint8Array {
  const body = value.startsWith('data:') ? value.replace(DATA_URL, '') : value;
  const decodedLength = (chars: number) => Math.floor((chars * 3) / 4);
  // Without whitespace or padding, the decoded length is known from the length alone.
  if (maxBytes === undefined || decodedLength(body.length) <= maxBytes) {
    const fast = decodePlainStandard(body);
    if (fast) return nonEmpty(fast, field);
  }
  const compact = body.replace(/\s+/g, '');
  const standard = isStandardBase64(compact);
  if (!standard && !(BASE64URL_CHARS.test(compact) && compact.length % 4 !== 1)) throw new BiostationError('INVALID_BASE64', `${field} is not valid base64`);
  if (maxBytes !== undefined && decodedLength(compact.replace(/=+$/, '').length) > maxBytes) {
    throw new BiostationError('IMAGE_TOO_LARGE', `${field} holds more than ${maxBytes} bytes`);
  }
  return nonEmpty(Buffer.from(compact, standard ? 'base64' : 'base64url'), field);
}

function nonEmpty(bytes: Buffer, field: string): Uint8Array {
  if (bytes.length === 0) throw new BiostationError('INVALID_BASE64', `${field} is empty`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
