import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { PersonRepository, TenantStore, TenantStoreProvider } from '../types.js';
import type { Keyring } from './keyring.js';
import { encryptingDocuments } from './encrypting-documents.js';
import { UnreadableTemplates } from '../../runtime/unreadable-templates.js';

/**
 * Encryption at rest of biometric templates (issue #18, finding 5), as a layer over any tenant
 * store: the repositories below keep their SQL and never see a template in clear; what reaches
 * them (and the disk) is
 *
 *   MAGIC (4: B5 5E C1 01) | iv (12) | AES-256-GCM ciphertext | tag (16)
 *
 * under the application's data key (see keyring.ts), with `applicationId \0 modality \0 ext_id`
 * as associated data: a stored template moved to another person, modality or application fails
 * to decrypt instead of being accepted. Reads decrypt in memory (the 1:N galleries hold
 * decrypted vectors, as before). Rows written before encryption existed (no MAGIC) are read as
 * they are and encrypted at their next write.
 *
 * The layer is generic over the repository's methods (a Proxy), so methods added later keep
 * working: every argument or result that is a person with `extId` and `templates` (a record, a
 * change of the sync feed, a gallery row), and every `(extId, templates[])` argument pair, is
 * transformed; anything else passes through unchanged.
 */
export const TEMPLATE_MAGIC = Buffer.from([0xb5, 0x5e, 0xc1, 0x01]);
const IV = 12;
const TAG = 16;

export const isEncrypted = (b: Uint8Array) => b.length >= TEMPLATE_MAGIC.length + IV + TAG && TEMPLATE_MAGIC.every((m, i) => b[i] === m);
export const aadOf = (applicationId: string, modality: string, extId: string) => Buffer.from(`${applicationId}\0${modality}\0${extId}`, 'utf8');

export function encryptTemplate(key: Buffer, aad: Buffer, plain: Uint8Array): Uint8Array {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const out = Buffer.concat([TEMPLATE_MAGIC, iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** @throws Error when the tag does not verify (tampered row, wrong key, template moved to another person) */
export function decryptTemplate(key: Buffer, aad: Buffer, stored: Uint8Array): Uint8Array {
  if (!isEncrypted(stored)) return stored;
  const b = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const decipher = createDecipheriv('aes-256-gcm', key, b.subarray(4, 4 + IV));
  decipher.setAAD(aad);
  decipher.setAuthTag(b.subarray(b.length - TAG));
  const out = Buffer.concat([decipher.update(b.subarray(4 + IV, b.length - TAG)), decipher.final()]);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** A transform's answer for bytes it cannot read: the template is left out of the result. */
const UNREADABLE = Symbol('unreadable template');
type Transform = (extId: string, bytes: Uint8Array) => Uint8Array | typeof UNREADABLE;

/** Applies `f` to the template bytes of a person-shaped value: `{ extId, templates: (Uint8Array | { data })[] }`. */
function mapPerson(value: unknown, f: Transform): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => mapPerson(v, f));
  const v = value as { extId?: unknown; templates?: unknown };
  if (typeof v.extId !== 'string' || !Array.isArray(v.templates)) return value;
  return { ...v, templates: mapTemplates(v.extId, v.templates, f) };
}

function mapTemplates(extId: string, templates: unknown[], f: Transform): unknown[] {
  return templates.flatMap((t) => {
    if (t instanceof Uint8Array) {
      const out = f(extId, t);
      return out === UNREADABLE ? [] : [out];
    }
    if (t && typeof t === 'object' && (t as { data?: unknown }).data instanceof Uint8Array) {
      const out = f(extId, (t as { data: Uint8Array }).data);
      return out === UNREADABLE ? [] : [{ ...(t as object), data: out }];
    }
    return [t];
  });
}

/**
 * A person repository whose templates are encrypted on the way down and decrypted on the way up.
 * A stored template that does not decrypt (a damaged row, one moved to another person) is left out
 * of what the read returns, logged and counted (`unreadable`, the store's), instead of failing
 * the whole read: one bad row must not poison the application's gallery (issue #18).
 */
export function encryptingRepository(inner: PersonRepository, applicationId: string, modality: 'face' | 'finger', dataKey: Buffer, unreadable: UnreadableTemplates): PersonRepository {
  const enc: Transform = (extId, b) => encryptTemplate(dataKey, aadOf(applicationId, modality, extId), b);
  const dec: Transform = (extId, b) => {
    try {
      return decryptTemplate(dataKey, aadOf(applicationId, modality, extId), b);
    } catch (e) {
      unreadable.report({ applicationId, modality, extId, stage: 'decrypt', reason: e instanceof Error ? e.message : String(e) });
      return UNREADABLE;
    }
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        const down = args.map((a, i) => {
          if (i > 0 && typeof args[i - 1] === 'string' && Array.isArray(a)) return mapTemplates(args[i - 1] as string, a, enc);
          return mapPerson(a, enc);
        });
        const result = member.apply(target, down);
        return result instanceof Promise ? result.then((r) => mapPerson(r, dec)) : mapPerson(result, dec);
      };
    },
  });
}

/** Wraps a tenant store provider so that every application's face and fingerprint repositories encrypt their templates. */
export class EncryptingTenantStoreProvider implements TenantStoreProvider {
  private readonly stores = new Map<string, Promise<TenantStore>>();
  readonly unreadable: UnreadableTemplates;

  constructor(
    private readonly inner: TenantStoreProvider,
    private readonly keyring: Keyring,
    /** Runs before the inner provider opens an application's store (file permissions). */
    private readonly beforeOpen?: (applicationId: string) => void,
  ) {
    this.unreadable = inner.unreadable ?? new UnreadableTemplates();
  }

  forApplication(applicationId: string): Promise<TenantStore> {
    let store = this.stores.get(applicationId);
    if (!store) {
      store = (async () => {
        this.beforeOpen?.(applicationId);
        const [raw, key] = await Promise.all([this.inner.forApplication(applicationId), this.keyring.dataKey(applicationId)]);
        const wrapped = Object.create(Object.getPrototypeOf(raw), Object.getOwnPropertyDescriptors(raw)) as TenantStore;
        Object.defineProperty(wrapped, 'faces', { value: encryptingRepository(raw.faces, applicationId, 'face', key, this.unreadable), enumerable: true });
        Object.defineProperty(wrapped, 'fingers', { value: encryptingRepository(raw.fingers, applicationId, 'finger', key, this.unreadable), enumerable: true });
        if (raw.documents) Object.defineProperty(wrapped, 'documents', { value: encryptingDocuments(raw.documents, applicationId, key, this.unreadable), enumerable: true });
        return wrapped;
      })();
      store.catch(() => this.stores.delete(applicationId));
      this.stores.set(applicationId, store);
    }
    return store;
  }

  async close(): Promise<void> {
    this.stores.clear();
    await this.inner.close();
    await this.keyring.close();
  }
}
