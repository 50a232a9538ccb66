/**
 * Payload format v1, server side (node:crypto): parse the envelope, decrypt it with the station's
 * liveness key, split the plaintext. Layout and key derivation: docs/liveness-payload.md and
 * renderer/capture/liveness/payload.ts (the client encoder); the two must agree byte for byte.
 */
import { createDecipheriv, createPublicKey, diffieHellman, hkdfSync, type KeyObject } from 'node:crypto';
import { LivenessError } from '../service.js';

export const MAGIC = Buffer.from('BSLV', 'ascii');
export const FORMAT_VERSION = 1;
export const KEY_ID_BYTES = 8;
export const POINT_BYTES = 65;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const HEADER_BYTES = 4 + 1 + 1 + KEY_ID_BYTES + POINT_BYTES + IV_BYTES;
export const HKDF_INFO_PREFIX = 'biostation/liveness/v1';
/** Most frames a plaintext may hold (a v1 capture sends about 30). */
export const MAX_FRAMES = 120;

export interface Envelope {
  version: number;
  keyId: Buffer;
  ephemeralPoint: Buffer;
  iv: Buffer;
  /** The 91 header bytes (GCM additional data). */
  header: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

export const parseError = () => new LivenessError(400, 'Failed to parse file', 'UNKNOWN');
export const metadataError = () => new LivenessError(400, 'Failed to read metadata', 'UNKNOWN');
export const decryptError = () => new LivenessError(400, 'Failed to decrypt message', 'UNKNOWN');

/**
 * Splits the envelope. @throws LivenessError 400 "Failed to parse file" when the bytes are too
 * short, the magic is wrong, the version is not 1, the flags are not 0 or the point is not uncompressed.
 */
export function parseEnvelope(bytes: Uint8Array): Envelope {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < HEADER_BYTES + TAG_BYTES + 1) throw parseError();
  if (!b.subarray(0, 4).equals(MAGIC) || b[4] !== FORMAT_VERSION || b[5] !== 0) throw parseError();
  const ephemeralPoint = b.subarray(14, 14 + POINT_BYTES);
  if (ephemeralPoint[0] !== 0x04) throw parseError();
  return {
    version: b[4],
    keyId: b.subarray(6, 14),
    ephemeralPoint,
    iv: b.subarray(14 + POINT_BYTES, HEADER_BYTES),
    header: b.subarray(0, HEADER_BYTES),
    ciphertext: b.subarray(HEADER_BYTES, b.length - TAG_BYTES),
    tag: b.subarray(b.length - TAG_BYTES),
  };
}

/** A P-256 public key from an uncompressed point; null when the point is not on the curve. */
export function pointToKey(point: Uint8Array): KeyObject | null {
  if (point.length !== POINT_BYTES || point[0] !== 0x04) return null;
  const x = Buffer.from(point.subarray(1, 33)).toString('base64url');
  const y = Buffer.from(point.subarray(33, 65)).toString('base64url');
  try {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** AES-256 key of an envelope: ECDH(station private, ephemeral) then HKDF-SHA-256. Null when the point is invalid. */
export function deriveKey(stationPrivate: KeyObject, env: Envelope): Buffer | null {
  const eph = pointToKey(env.ephemeralPoint);
  if (!eph) return null;
  let shared: Buffer;
  try {
    shared = diffieHellman({ privateKey: stationPrivate, publicKey: eph });
  } catch {
    return null;
  }
  const info = Buffer.concat([Buffer.from(HKDF_INFO_PREFIX, 'utf8'), env.keyId]);
  return Buffer.from(hkdfSync('sha256', shared, env.ephemeralPoint, info, 32));
}

/**
 * Decrypts and authenticates the envelope with the station key it names.
 * @returns the plaintext, or null when GCM authentication fails (ciphertext, tag or header altered)
 *   or the ephemeral point is not on the curve.
 */
export function openEnvelope(stationPrivate: KeyObject, env: Envelope): Buffer | null {
  const key = deriveKey(stationPrivate, env);
  if (!key) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', key, env.iv, { authTagLength: TAG_BYTES });
    d.setAAD(env.header);
    d.setAuthTag(env.tag);
    return Buffer.concat([d.update(env.ciphertext), d.final()]);
  } catch {
    return null;
  }
}

/**
 * Splits a v1 plaintext into its metadata JSON value and its frames.
 * @throws LivenessError 400 "Failed to read metadata" for any inconsistency (lengths, JSON, frame count).
 */
export function unpackPlaintext(p: Buffer): { metadata: unknown; frames: Buffer[] } {
  if (p.length < 6) throw metadataError();
  const metaLen = p.readUInt32BE(0);
  if (4 + metaLen + 2 > p.length) throw metadataError();
  let metadata: unknown;
  try {
    metadata = JSON.parse(p.subarray(4, 4 + metaLen).toString('utf8'));
  } catch {
    throw metadataError();
  }
  let o = 4 + metaLen;
  const n = p.readUInt16BE(o);
  o += 2;
  if (n > MAX_FRAMES) throw metadataError();
  const frames: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    if (o + 4 > p.length) throw metadataError();
    const len = p.readUInt32BE(o);
    o += 4;
    if (o + len > p.length) throw metadataError();
    frames.push(p.subarray(o, o + len));
    o += len;
  }
  if (o !== p.length) throw metadataError();
  return { metadata, frames };
}
