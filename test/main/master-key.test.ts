/** The kiosk's station master key under Electron safeStorage (main/master-key.ts), with a fake safeStorage. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kioskMasterKey, sealedKeyFile, type SafeStorageLike } from '../../main/master-key.js';
import { startTestStation } from '../api/harness.js';

/** XOR with a per-"user" pad: what it seals, only the same user opens (as a keychain-held key). */
function fakeSafeStorage(user = 7, options: { available?: boolean; backend?: 'basic_text' | 'gnome_libsecret' } = {}): SafeStorageLike & { sealed: number } {
  const fake = {
    sealed: 0,
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(text: string): Buffer {
      fake.sealed++;
      return Buffer.concat([Buffer.from([user]), Buffer.from(text).map((b) => b ^ user)]);
    },
    decryptString(sealed: Buffer): string {
      if (sealed[0] !== user) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(sealed.subarray(1).map((b) => b ^ user)).toString();
    },
  };
  return fake;
}

describe('kiosk master key (safeStorage)', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = () => (dir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-key-')));

  it('creates a key sealed with safeStorage (0600, not in clear) and opens the same one on the next start', () => {
    const dataDir = path.join(fresh(), 'data');
    const safe = fakeSafeStorage();
    const first = kioskMasterKey({ safeStorage: safe, dataDir, env: {} });
    expect(first.source).toBe('safeStorage');
    expect(Buffer.from(first.masterKey!, 'base64')).toHaveLength(32);
    const sealed = readFileSync(sealedKeyFile(dataDir));
    expect(sealed.includes(Buffer.from(first.masterKey!))).toBe(false);
    expect(statSync(sealedKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(dataDir, 'master.key'))).toBe(false);
    expect(kioskMasterKey({ safeStorage: safe, dataDir, env: {} }).masterKey).toBe(first.masterKey);
    expect(safe.sealed).toBe(1);
  });

  it('adopts the station key file of an earlier start: seals it, then removes the clear copy', () => {
    const dataDir = fresh();
    const key = randomBytes(32).toString('base64');
    writeFileSync(path.join(dataDir, 'master.key'), `${key}\n`, { mode: 0o600 });
    const got = kioskMasterKey({ safeStorage: fakeSafeStorage(), dataDir, env: {} });
    expect(got).toMatchObject({ masterKey: key, source: 'safeStorage' });
    expect(existsSync(path.join(dataDir, 'master.key'))).toBe(false);
    expect(kioskMasterKey({ safeStorage: fakeSafeStorage(), dataDir, env: {} }).masterKey).toBe(key);
  });

  it('refuses to start when the sealed key does not open (another user), rather than making a new key', () => {
    const dataDir = fresh();
    const key = kioskMasterKey({ safeStorage: fakeSafeStorage(7), dataDir, env: {} }).masterKey;
    expect(() => kioskMasterKey({ safeStorage: fakeSafeStorage(9), dataDir, env: {} })).toThrow(/cannot be opened/);
    expect(kioskMasterKey({ safeStorage: fakeSafeStorage(7), dataDir, env: {} }).masterKey).toBe(key);
  });

  it('leaves the key to the station without a real keychain, with BIOSTATION_MASTER_KEY, or during a rotation', () => {
    const dataDir = fresh();
    for (const safeStorage of [undefined, fakeSafeStorage(7, { available: false }), fakeSafeStorage(7, { backend: 'basic_text' })]) {
      expect(kioskMasterKey({ safeStorage, dataDir, env: {} })).toEqual({ source: 'key file', note: expect.any(String) });
    }
    expect(kioskMasterKey({ safeStorage: fakeSafeStorage(), dataDir, env: { BIOSTATION_MASTER_KEY: 'x' } })).toEqual({ source: 'environment', note: expect.any(String) });
    writeFileSync(path.join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`);
    writeFileSync(path.join(dataDir, 'master.key.next'), `${randomBytes(32).toString('base64')}\n`);
    expect(kioskMasterKey({ safeStorage: fakeSafeStorage(), dataDir, env: {} })).toEqual({ source: 'key file', note: expect.stringMatching(/rotation/) });
    expect(existsSync(sealedKeyFile(dataDir))).toBe(false);
  });

  it('the station started with the kiosk key keeps no key file in clear and encrypts with it', async () => {
    const dataDir = fresh();
    const { masterKey } = kioskMasterKey({ safeStorage: fakeSafeStorage(), dataDir, env: {} });
    const t = await startTestStation({ config: { dataDir, masterKey } });
    try {
      const app = await t.application('kiosk');
      expect((await t.station.services.stores.forApplication(app.id)) !== undefined).toBe(true);
      expect(existsSync(path.join(dataDir, 'master.key'))).toBe(false);
      expect(existsSync(sealedKeyFile(dataDir))).toBe(true);
    } finally {
      await t.station.close();
    }
  });
});
