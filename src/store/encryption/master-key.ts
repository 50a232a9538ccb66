import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** A 256-bit key and its id (the first 8 bytes of its SHA-256, hex): wrapped data keys name the key that wrapped them. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

export const MASTER_KEY_BYTES = 32;

export const masterKeyOf = (key: Buffer): MasterKey => {
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`a master key has ${MASTER_KEY_BYTES} bytes, this one ${key.length}`);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
};

/** Parses a base64 (or base64url) master key, as given in BIOSTATION_MASTER_KEY. @throws Error for anything but 32 bytes */
export function parseMasterKey(text: string, origin: string): MasterKey {
  const bytes = Buffer.from(text.trim(), /[-_]/.test(text) ? 'base64url' : 'base64');
  if (bytes.length !== MASTER_KEY_BYTES) throw new Error(`${origin} must hold ${MASTER_KEY_BYTES} bytes in base64 (openssl rand -base64 32)`);
  return masterKeyOf(bytes);
}

/**
 * Where the station master key comes from, in order: a key supplied by the host (`provided`: the
 * BIOSTATION_MASTER_KEY environment variable, or the kiosk's Electron safeStorage), else a key file
 * (mode 0600) created with 32 random bytes at first start. A rotation in progress leaves
 * `<file>.next` beside the file; both are then loaded, so data keys wrapped by either unwrap.
 */
export interface MasterKeySource {
  file: string;
  provided?: MasterKey;
}

/** The current master key and, during a rotation, the next one. */
export function loadMasterKeys(source: MasterKeySource): MasterKey[] {
  if (source.provided) return [source.provided];
  const keys: MasterKey[] = [];
  if (!existsSync(source.file)) writeKeyFile(source.file, randomBytes(MASTER_KEY_BYTES));
  chmodSync(source.file, 0o600);
  keys.push(parseMasterKey(readFileSync(source.file, 'utf8'), source.file));
  const next = `${source.file}.next`;
  if (existsSync(next)) keys.push(parseMasterKey(readFileSync(next, 'utf8'), next));
  return keys;
}

/** Writes a key file atomically with mode 0600. */
export function writeKeyFile(file: string, key: Buffer): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Step 1 of a file-key rotation: a new key in `<file>.next`. Returns it. */
export function stageNextMasterKey(file: string): MasterKey {
  const key = randomBytes(MASTER_KEY_BYTES);
  writeKeyFile(`${file}.next`, key);
  return masterKeyOf(key);
}

/** Last step of a file-key rotation, once every data key is wrapped by the next key: it becomes the key. */
export function promoteNextMasterKey(file: string): void {
  renameSync(`${file}.next`, file);
}

export function discardNextMasterKey(file: string): void {
  rmSync(`${file}.next`, { force: true });
}
