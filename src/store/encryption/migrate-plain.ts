import type { Store } from '../index.js';
import { aadOf, encryptTemplate, isEncrypted } from './encrypting-store.js';

export interface PlainMigration {
  applications: number;
  /** Template rows read. */
  scanned: number;
  /** Rows that were in clear and are now encrypted. */
  encrypted: number;
  /** Rows in clear that a write changed meanwhile (left to that write, which stores them encrypted). */
  raced: number;
}

/**
 * Encrypts the template rows stored in clear before encryption at rest existed (`biostation keys
 * migrate`, issue #18), online: application by application, modality by modality, in batches of
 * `batch` rows by id, each batch one transaction of compare-and-set rewrites (a row a running
 * station changed meanwhile is left to that write). A rewrite is not a change of the person: no
 * revision, version or change-feed entry (galleries and sync peers see the same templates).
 * Idempotent: rows already encrypted are skipped, so a second run encrypts nothing. Afterwards each
 * store that had rows in clear is compacted (SQLite: VACUUM and a truncated WAL, so no freed page
 * keeps the old bytes; PostgreSQL: VACUUM).
 * @throws Error when the store does not encrypt (opened without a master key)
 */
export async function encryptPlainTemplates(store: Store, options: { batch?: number; onProgress?: (p: PlainMigration) => void } = {}): Promise<PlainMigration> {
  const keyring = store.keyring;
  if (!keyring) throw new Error('the store was opened without encryption: no master key to encrypt with');
  const batch = Math.max(1, options.batch ?? 500);
  const total: PlainMigration = { applications: 0, scanned: 0, encrypted: 0, raced: 0 };
  for (const app of await store.applications.list()) {
    total.applications++;
    const [tenant, key] = await Promise.all([store.tenants.forApplication(app.id), keyring.dataKey(app.id)]);
    let touched = false;
    for (const modality of ['face', 'finger'] as const) {
      // Through the encrypting layer these calls pass unchanged: rows carry no `templates` list.
      const repository = modality === 'face' ? tenant.faces : tenant.fingers;
      for (let afterId = 0; ;) {
        const rows = await repository.storedTemplateRows(afterId, batch);
        if (rows.length === 0) break;
        afterId = rows[rows.length - 1].id;
        total.scanned += rows.length;
        const plain = rows.filter((r) => !isEncrypted(r.data));
        if (plain.length > 0) {
          const done = await repository.rewriteTemplateRows(plain.map((r) => ({
            id: r.id,
            expected: r.data,
            data: encryptTemplate(key, aadOf(app.id, modality, r.extId), r.data),
          })));
          total.encrypted += done;
          total.raced += plain.length - done;
          touched = true;
        }
        options.onProgress?.({ ...total });
      }
    }
    if (touched) await tenant.faces.compact();
  }
  return total;
}
