/**
 * Payload format v1 of the advanced liveness capture (docs/liveness-payload.md), client side.
 * Isomorphic: only WebCrypto (`crypto.subtle`), DataView and TextEncoder, so the same code runs in
 * the browser and in Node's tests.
 *
 * Envelope (all integers big-endian):
 *   0  magic "BSLV" (4)   4 version = 1 (1)   5 flags = 0 (1)   6 key id (8)
 *   14 ephemeral P-256 public key, uncompressed point 0x04|X|Y (65)   79 AES-GCM IV (12)
 *   91 AES-256-GCM ciphertext of the plaintext, followed by its 16-byte tag
 * The 91 header bytes are the GCM additional data. Key: ECDH(ephemeral, station) -> 32 bytes ->
 * HKDF-SHA-256(salt = ephemeral point, info = "biostation/liveness/v1" | key id) -> 32 bytes.
 * Plaintext: u32 metadata length | metadata JSON (UTF-8) | u16 frame count | per frame u32 length | JPEG.
 */

export const MAGIC = [0x42, 0x53, 0x4c, 0x56] as const; // "BSLV"
export const FORMAT_VERSION = 1;
export const KEY_ID_BYTES = 8;
export const POINT_BYTES = 65;
export const IV_BYTES = 12;
export const HEADER_BYTES = 4 + 1 + 1 + KEY_ID_BYTES + POINT_BYTES + IV_BYTES;
export const HKDF_INFO_PREFIX = 'biostation/liveness/v1';

/** Plaintext of a capture: its metadata (JSON) and its frames (JPEG bytes, in metadata.frames order). */
export interface CapturePlaintext {
  metadata: unknown;
  frames: Uint8Array[];
}

/** Concatenates byte arrays. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Serialises metadata and frames into the v1 plaintext layout. */
export function packPlaintext({ metadata, frames }: CapturePlaintext): Uint8Array {
  if (frames.length > 0xffff) throw new RangeError('too many frames');
  const meta = new TextEncoder().encode(JSON.stringify(metadata));
  const head = new Uint8Array(4 + meta.length + 2);
  const dv = new DataView(head.buffer);
  dv.setUint32(0, meta.length);
  head.set(meta, 4);
  dv.setUint16(4 + meta.length, frames.length);
  const parts: Uint8Array[] = [head];
  for (const f of frames) {
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, f.length);
    parts.push(len, f);
  }
  return concatBytes(parts);
}

/** Base64url (no padding) of bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of a base64url (or base64) string. */
export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const buf = (b: Uint8Array): ArrayBuffer => b.slice().buffer as ArrayBuffer;

/**
 * Encrypts a plaintext to the station's public key (raw uncompressed P-256 point, 65 bytes) under
 * its 8-byte key id, with a fresh ephemeral key pair and IV.
 * @returns the envelope bytes, ready to POST as application/octet-stream.
 */
export async function sealPayload(plaintext: Uint8Array, stationPublicKey: Uint8Array, keyId: Uint8Array, subtle: SubtleCrypto = crypto.subtle): Promise<Uint8Array> {
  if (stationPublicKey.length !== POINT_BYTES || keyId.length !== KEY_ID_BYTES) throw new RangeError('bad station key');
  const station = await subtle.importKey('raw', buf(stationPublicKey), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const eph = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const ephRaw = new Uint8Array(await subtle.exportKey('raw', eph.publicKey));
  const shared = await subtle.deriveBits({ name: 'ECDH', public: station }, eph.privateKey, 256);
  const ikm = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const info = concatBytes([new TextEncoder().encode(HKDF_INFO_PREFIX), keyId]);
  const aes = await subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: buf(ephRaw), info: buf(info) }, ikm, { name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const header = concatBytes([new Uint8Array(MAGIC), new Uint8Array([FORMAT_VERSION, 0]), keyId, ephRaw, iv]);
  const ct = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv: buf(iv), additionalData: buf(header), tagLength: 128 }, aes, buf(plaintext)));
  return concatBytes([header, ct]);
}

/** SHA-256 of bytes, as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  return hex(new Uint8Array(await subtle.digest('SHA-256', buf(bytes))));
}

/**
 * Integrity proof of the library's code for one challenge: HMAC-SHA-256 keyed with the SHA-256 of
 * the code text, over the UTF-8 nonce; lowercase hex. The station recomputes it from the code it serves.
 */
export async function integrityProof(codeSha256Hex: string, nonce: string, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const key = await subtle.importKey('raw', buf(unhex(codeSha256Hex)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(new Uint8Array(await subtle.sign('HMAC', key, buf(new TextEncoder().encode(nonce)))));
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function unhex(text: string): Uint8Array {
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
