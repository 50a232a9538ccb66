import { Type } from '@sinclair/typebox';
import type { Tenant } from '../../services/tenant.js';
import { encodeFeedPage, type FeedPage, type Modality } from '../../sync/wire.js';
import { parseStored } from '../../sync/document-wire.js';
import type { DocumentRecord } from '../../services/person-documents.js';
import { FaceRecord, Timestamp, pagingOf } from '../schemas.js';

/**
 * The dumps' change-feed extension (src/sync/wire.ts): `since` turns a dump into the application's
 * change feed after that sequence number (persons and tombstones, sequence order, `next_since`);
 * without it the dump pages as the spec says. The fields added to the spec's shape are optional,
 * so the face dump stays valid for spec clients.
 */
export const FeedQuery = Type.Object({
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: '1-based page (default 1)' })),
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'records per page, 1..1000 (default 100)' })),
  since: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$', description: 'Extension: change sequence number; answers the changes after it (persons and tombstones) instead of a page' })),
});

const Version = Type.String({ description: 'Extension: hybrid-logical-clock version of the latest change (ms.counter@station)' });

/** A person's document record as GET /api/v1/persons/{ext_id}/document answers it (src/services/person-documents.ts). */
export const DocumentJson = Type.Object({
  kind: Type.Literal('CNH'),
  fields: Type.Record(Type.String(), Type.String()),
  photoCheck: Type.Optional(Type.Object({
    found: Type.Boolean(), matched: Type.Optional(Type.Boolean()), score: Type.Optional(Type.Number()), threshold: Type.Optional(Type.Number()),
  })),
  updatedAt: Timestamp,
}, { description: 'Extension: the person\'s document record (PUT /api/v1/persons/{ext_id}/document), when it has one' });
const Seq = Type.Integer({ description: "Extension: the change's sequence number on this station" });
const feedFields = {
  tombstones: Type.Optional(Type.Array(Type.Object({
    ExternalID: Type.Optional(Type.String()), externalId: Type.Optional(Type.String()),
    DeletedAt: Type.Optional(Timestamp), deletedAt: Type.Optional(Timestamp),
    Version: Type.Optional(Version), version: Type.Optional(Version),
    StationID: Type.Optional(Type.String()), stationId: Type.Optional(Type.String()),
    Seq: Type.Optional(Seq), seq: Type.Optional(Seq),
  }), { description: 'Extension (with `since`): persons deleted, kept for the retention period' })),
  next_since: Type.Optional(Type.Integer({ description: 'Extension (with `since`): `since` of the next page' })),
};

export const FaceDumpResponse = Type.Object({
  result: Type.Object({
    total_entries: Type.Integer(),
    faces: Type.Array(Type.Composite([FaceRecord, Type.Object({ Version: Type.Optional(Version), Seq: Type.Optional(Seq), Document: Type.Optional(DocumentJson) })])),
    ...feedFields,
  }),
});

export const FingerDumpResponse = Type.Object({
  result: Type.Object({
    total_entries: Type.Integer(),
    fingers: Type.Array(Type.Object({
      externalId: Type.String(),
      templates: Type.Array(Type.Object({ data: Type.String({ description: 'Base64 ISO/IEC 19794-2:2005 record' }), position: Type.Union([Type.String(), Type.Null()]) })),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      version: Type.Optional(Version),
      seq: Type.Optional(Seq),
      document: Type.Optional(DocumentJson),
    })),
    ...feedFields,
  }),
});

/** The feed page asked for by a dump query with `since`, or undefined for a plain (spec) dump. */
export async function feedPage(modality: Modality, tenant: Tenant, query: unknown): Promise<{ result: FeedPage } | undefined> {
  const since = (query as { since?: string }).since;
  if (since === undefined) return undefined;
  const { limit } = pagingOf(query);
  const repository = modality === 'face' ? tenant.store.faces : tenant.store.fingers;
  const after = Number(since);
  const [changes, total] = await Promise.all([repository.changes(after, limit), repository.countChanges(after)]);
  return { result: encodeFeedPage(modality, changes, total, after) };
}

/**
 * The document records of the persons of a plain dump page (extension: the dump carries each person's
 * record, `Document` / `document`), by ext_id; empty for a store that keeps none.
 */
export async function documentsOf(tenant: Tenant, extIds: string[]): Promise<Map<string, DocumentRecord>> {
  const out = new Map<string, DocumentRecord>();
  const documents = tenant.store.documents;
  if (!documents) return out;
  for (const [extId, row] of await documents.getMany(extIds)) {
    const record = parseStored(row.data);
    if (record) out.set(extId, record);
  }
  return out;
}
