import { decryptTemplate, encryptTemplate, isEncrypted } from '../store/encryption/encrypting-store.js';
import type { Keyring } from '../store/encryption/keyring.js';

/**
 * Seals the secrets of sync peers added from the Admin screen before they are stored (the station
 * registry's peer list), and opens them when a sync needs them (src/sync/peer-registry.ts).
 * `context` binds a sealed secret to its entry (peer name, URL, peer key): a secret copied to
 * another entry, or an entry whose URL was edited in the file to point elsewhere, does not open.
 */
export interface PeerSecretSealer {
  /** @returns the sealed secret as text. @throws Error when the application's key is not available */
  seal(appKey: string, context: string, secret: string): Promise<string>;
  /** @throws Error when `sealed` does not open under this application's key and `context` */
  open(appKey: string, context: string, sealed: string): Promise<string>;
}

const PREFIX = 'v1:';

/**
 * The station's sealer: AES-256-GCM under the data key of the peer's local application (the key its
 * templates are encrypted with, wrapped by the station master key: src/store/encryption/keyring.ts),
 * associated data `sync-peer \0 appKey \0 context`. So the stored list alone does not give a peer's
 * credential away when the master key is not on the same disk (BIOSTATION_MASTER_KEY, or the kiosk's
 * OS keychain); with the key file beside it, it still keeps the secret out of dumps and copies
 * of the registry. A master key rotation re-wraps data keys without changing them, so sealed secrets stay
 * readable. Text form: `v1:` + base64 of the template-encryption format (encrypting-store.ts).
 * @param applicationIdOf the id of the application of key `appKey` (undefined: unknown application).
 */
export function keyringSealer(keyring: Keyring, applicationIdOf: (appKey: string) => Promise<string | undefined>): PeerSecretSealer {
  const keyOf = async (appKey: string): Promise<Buffer> => {
    const id = await applicationIdOf(appKey);
    if (id === undefined) throw new Error(`no application of key ${appKey}`);
    return keyring.dataKey(id);
  };
  const aad = (appKey: string, context: string) => Buffer.from(`sync-peer\0${appKey}\0${context}`, 'utf8');
  return {
    async seal(appKey, context, secret) {
      const sealed = encryptTemplate(await keyOf(appKey), aad(appKey, context), Buffer.from(secret, 'utf8'));
      return PREFIX + Buffer.from(sealed).toString('base64');
    },
    async open(appKey, context, text) {
      if (!text.startsWith(PREFIX)) throw new Error('not a sealed secret');
      const sealed = Buffer.from(text.slice(PREFIX.length), 'base64');
      if (!isEncrypted(sealed)) throw new Error('not a sealed secret');
      return Buffer.from(decryptTemplate(await keyOf(appKey), aad(appKey, context), sealed)).toString('utf8');
    },
  };
}
