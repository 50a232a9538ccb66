/**
 * The station master key in the kiosk (issue #18): sealed by Electron `safeStorage` (the OS keychain:
 * DPAPI on Windows, Keychain on macOS, libsecret/kwallet on Linux) in `<dataDir>/master.key.sealed`
 * (mode 0600), and handed to the in-process station as its host-supplied key (config.masterKey, the
 * same path as BIOSTATION_MASTER_KEY), so no key file in clear is left in the data folder.
 *
 * Order: BIOSTATION_MASTER_KEY in the environment wins (the station reads it itself); else, when
 * safeStorage can seal with a real keychain, the sealed key is opened, or on first use created: a
 * station key file already in the data folder (`master.key`, from a start without the keychain) is
 * adopted, sealed and then removed, otherwise 32 random bytes; else (no keychain, or Linux's
 * `basic_text` store, whose password is built in) nothing is handed over and the station keeps its
 * 0600 key file, as headless. A sealed key that no longer opens (another OS user, a reset keychain)
 * stops the start with an error rather than creating a new key that could not read the templates.
 * A rotation in progress (`master.key.next`) is left to finish headless (`biostation keys rotate`).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SafeStorage } from 'electron';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

/** Bytes of a master key (src/store/encryption/master-key.ts). */
const KEY_BYTES = 32;

/** Where the kiosk keeps the sealed key, in the station's data folder. */
export const sealedKeyFile = (dataDir: string): string => path.join(dataDir, 'master.key.sealed');

/** What kioskMasterKey decided: the key for the station (base64), or why none is handed over. */
export interface KioskMasterKey {
  /** Base64 of the 32-byte key, for the station's config.masterKey; undefined = the station's own key source. */
  masterKey?: string;
  source: 'environment' | 'safeStorage' | 'key file';
  /** One line for the kiosk log (never the key). */
  note: string;
}

function validKey(text: string, origin: string): string {
  const trimmed = text.trim();
  if (Buffer.from(trimmed, 'base64').length !== KEY_BYTES) throw new Error(`${origin} does not hold a ${KEY_BYTES}-byte master key`);
  return trimmed;
}

function writeSealed(file: string, sealed: Buffer): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, sealed, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/**
 * The master key the kiosk hands to its station (see the module comment). Call after Electron's
 * `ready` (safeStorage answers only then).
 * @throws Error when the sealed key cannot be opened, or an adopted key file is not a master key
 */
export function kioskMasterKey(options: { safeStorage?: SafeStorageLike; dataDir: string; env: Record<string, string | undefined> }): KioskMasterKey {
  const { safeStorage, dataDir, env } = options;
  if (env.BIOSTATION_MASTER_KEY) return { source: 'environment', note: 'master key from BIOSTATION_MASTER_KEY' };
  const backend = safeStorage?.getSelectedStorageBackend?.();
  if (!safeStorage || !safeStorage.isEncryptionAvailable() || backend === 'basic_text') {
    return { source: 'key file', note: `no OS keychain for safeStorage${backend ? ` (${backend})` : ''}: the station keeps its 0600 key file` };
  }
  const sealedFile = sealedKeyFile(dataDir);
  if (existsSync(sealedFile)) {
    let text: string;
    try {
      text = safeStorage.decryptString(readFileSync(sealedFile));
    } catch (e) {
      throw new Error(`The sealed master key ${sealedFile} cannot be opened by this user's keychain (${e instanceof Error ? e.message : String(e)}); the templates cannot be read without it`);
    }
    return { masterKey: validKey(text, sealedFile), source: 'safeStorage', note: 'master key opened with safeStorage' };
  }
  const plainFile = path.join(dataDir, 'master.key');
  if (existsSync(`${plainFile}.next`)) {
    return { source: 'key file', note: 'a master key rotation is in progress (master.key.next): the station keeps its key file until it finishes' };
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const adopted = existsSync(plainFile);
  const key = adopted ? validKey(readFileSync(plainFile, 'utf8'), plainFile) : randomBytes(KEY_BYTES).toString('base64');
  writeSealed(sealedFile, safeStorage.encryptString(key));
  if (safeStorage.decryptString(readFileSync(sealedFile)) !== key) throw new Error(`safeStorage did not give back the sealed master key (${sealedFile})`);
  if (adopted) rmSync(plainFile); // only once the sealed copy opens
  return { masterKey: key, source: 'safeStorage', note: adopted ? 'master key file sealed with safeStorage and removed' : 'new master key sealed with safeStorage' };
}
