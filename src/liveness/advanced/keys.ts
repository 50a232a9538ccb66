/**
 * The station's liveness key pair (ECDH P-256): the capture library encrypts each payload to its
 * public key. Generated at first start beside the token signing key, stored as JWK with mode 0600,
 * rotatable: `rotate()` makes a new current key and keeps the previous ones (at most
 * `keepPrevious`) so that payloads sealed just before a rotation still open.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { KEY_ID_BYTES } from './envelope.js';

/** File name of the key pair inside the data directory (beside station-key.jwk). */
export const LIVENESS_KEY_FILE = 'liveness-key.json';

interface StoredKey {
  kid: string;
  createdAt: string;
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string };
}

interface KeyFile {
  version: 1;
  current: StoredKey;
  previous: StoredKey[];
}

/** One loaded key. */
export interface LivenessKey {
  /** Hex of the 8-byte key id: the first 8 bytes of SHA-256 over the raw public point. */
  kid: string;
  privateKey: KeyObject;
  /** Uncompressed P-256 point 0x04|X|Y (65 bytes). */
  publicPoint: Buffer;
  createdAt: string;
}

function generate(): StoredKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as StoredKey['jwk'];
  return { kid: keyIdOf(rawPoint(jwk)), createdAt: new Date().toISOString(), jwk };
}

function rawPoint(jwk: { x: string; y: string }): Buffer {
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
}

/** Key id of a public point: hex of the first 8 bytes of its SHA-256. */
export function keyIdOf(point: Uint8Array): string {
  return createHash('sha256').update(point).digest().subarray(0, KEY_ID_BYTES).toString('hex');
}

function load(k: StoredKey): LivenessKey {
  const privateKey = createPrivateKey({ key: k.jwk, format: 'jwk' });
  const pub = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string; y: string };
  const publicPoint = rawPoint(pub);
  if (keyIdOf(publicPoint) !== k.kid) throw new Error('liveness key file: key id does not match its key');
  return { kid: k.kid, privateKey, publicPoint, createdAt: k.createdAt };
}

export class LivenessKeyStore {
  private keys: LivenessKey[];
  private mtimeMs = 0;

  private constructor(
    private readonly file: string | null,
    private data: KeyFile,
    private readonly keepPrevious: number,
  ) {
    this.keys = [data.current, ...data.previous].map(load);
    if (file) this.mtimeMs = statSync(file).mtimeMs;
  }

  /** Re-reads the key file when another process (`biostation liveness rotate-key`) changed it. */
  private refresh(): void {
    if (!this.file) return;
    try {
      const { mtimeMs } = statSync(this.file);
      if (mtimeMs === this.mtimeMs) return;
      const data = readKeyFile(this.file);
      this.keys = [data.current, ...data.previous].map(load);
      this.data = data;
      this.mtimeMs = mtimeMs;
    } catch {
      // Mid-rename or unreadable: keep the keys in memory.
    }
  }

  /** Loads `file`, creating it (mode 0600) with a fresh key when absent. */
  static open(file: string, keepPrevious = 1): LivenessKeyStore {
    let data: KeyFile;
    if (existsSync(file)) {
      data = readKeyFile(file);
    } else {
      data = { version: 1, current: generate(), previous: [] };
      write(file, data);
    }
    return new LivenessKeyStore(file, data, keepPrevious);
  }

  /** A key store held in memory only (tests). */
  static ephemeral(keepPrevious = 1): LivenessKeyStore {
    return new LivenessKeyStore(null, { version: 1, current: generate(), previous: [] }, keepPrevious);
  }

  /** The key new challenges hand out. */
  get current(): LivenessKey {
    this.refresh();
    return this.keys[0];
  }

  /** The key with this 8-byte id (current or kept previous), or undefined: the payload was sealed for another key. */
  find(keyId: Uint8Array): LivenessKey | undefined {
    this.refresh();
    const kid = Buffer.from(keyId).toString('hex');
    return this.keys.find((k) => k.kid === kid);
  }

  /** Makes a new current key; the old current one is kept as previous (the oldest beyond `keepPrevious` are dropped). */
  rotate(): LivenessKey {
    this.refresh();
    this.data = { version: 1, current: generate(), previous: [this.data.current, ...this.data.previous].slice(0, this.keepPrevious) };
    if (this.file) {
      write(this.file, this.data);
      this.mtimeMs = statSync(this.file).mtimeMs;
    }
    this.keys = [this.data.current, ...this.data.previous].map(load);
    return this.current;
  }
}

function readKeyFile(file: string): KeyFile {
  const data = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  if (data.version !== 1 || !data.current) throw new Error(`liveness key file ${file}: unknown format`);
  return data;
}

function write(file: string, data: KeyFile): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
