import type { DocumentChange, DocumentRepository, IncomingDocumentChange, StoredDocument } from '../documents.js';
import { decryptTemplate, encryptTemplate } from './encrypting-store.js';
import type { UnreadableTemplates } from '../../runtime/unreadable-templates.js';

/**
 * The document repository with its records sealed under the application's data key: AES-256-GCM,
 * the same format as templates (encrypting-store.ts), associated data
 * `applicationId \0 document \0 ext_id` (a record moved to another person or application fails to
 * open). Records written without encryption are read as they are. The sync feed is read in clear
 * and what a peer sends is sealed here with this station's key, as the persons' templates are.
 * A stored record that does not open is left out of the feed and the dumps (logged and counted,
 * stage decrypt); `get` throws for it. The feed's page is refilled past such records, so it comes
 * back short only at the feed's end and a sync moves past them (they do not stop it).
 */
export function encryptingDocuments(inner: DocumentRepository, applicationId: string, dataKey: Buffer, unreadable: UnreadableTemplates): DocumentRepository {
  const aad = (extId: string) => Buffer.from(`${applicationId}\0document\0${extId}`, 'utf8');
  const seal = (c: IncomingDocumentChange): IncomingDocumentChange => (c.kind === 'upsert' ? { ...c, data: encryptTemplate(dataKey, aad(c.extId), c.data) } : c);
  const open = <T extends { extId: string; data?: Uint8Array }>(c: T): T[] => {
    if (!c.data) return [c];
    try {
      return [{ ...c, data: decryptTemplate(dataKey, aad(c.extId), c.data) }];
    } catch (e) {
      unreadable.report({ applicationId, modality: 'document', extId: c.extId, stage: 'decrypt', reason: e instanceof Error ? e.message : String(e) });
      return [];
    }
  };
  return {
    put: (extId, data, now) => inner.put(extId, encryptTemplate(dataKey, aad(extId), data), now),
    async get(extId) {
      const row = await inner.get(extId);
      return row && { ...row, data: decryptTemplate(dataKey, aad(extId), row.data) };
    },
    async getMany(extIds) {
      const out = new Map<string, StoredDocument>();
      for (const [extId, row] of await inner.getMany(extIds)) for (const opened of open({ ...row, extId })) out.set(extId, { data: opened.data, updatedAt: row.updatedAt, version: row.version });
      return out;
    },
    delete: (extId) => inner.delete(extId),
    count: () => inner.count(),
    async page(offset, limit) {
      return (await inner.page(offset, limit)).flatMap(open);
    },
    async changes(afterSeq, limit) {
      // Unreadable records are dropped; the page is refilled from past them so that a page comes back
      // short only at the end of the feed, and the feed moves past them (each reported as it is read).
      const out: DocumentChange[] = [];
      for (let after = afterSeq; out.length < limit; ) {
        const want = limit - out.length;
        const got = await inner.changes(after, want);
        for (const c of got) out.push(...open(c));
        if (got.length < want) break;
        after = got[got.length - 1].seq;
      }
      return out;
    },
    countChanges: (afterSeq) => inner.countChanges(afterSeq),
    lastSeq: () => inner.lastSeq(),
    applyChanges: (changes) => inner.applyChanges(changes.map(seal)),
    versionOf: (extId) => inner.versionOf(extId),
    personExists: (extId) => inner.personExists(extId),
    purgeTombstones: (before) => inner.purgeTombstones(before),
  };
}
