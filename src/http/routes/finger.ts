import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { tenantOf } from '../auth.js';
import { decodeBase64Field, encodeBase64 } from '../../runtime/base64.js';
import { imageFieldOf } from '../image-limits.js';
import type { Authenticate, StationServices } from '../context.js';
import { FeedQuery, FingerDumpResponse, documentsOf, feedPage } from './sync-feed.js';
import { Candidates, DuplicateRefusal, Duplicates, candidatesField, duplicatesField, refusingDuplicates } from './dedup.js';
import {
  CompareResponse, CountBody, DecisionFields, DumpQuery, ExtIdParams, FingerImageBody, FingerImagePairBody, FingerProbeBody,
  FingerTemplatePairBody, Result, ResultBody, Timestamp, pagingOf, resultErrors,
} from '../schemas.js';

const BASE = '/api/v1/services/finger';
const tags = ['finger'];
const security = [{ bearerAuth: [] }];

type Params = Static<typeof ExtIdParams>;
type ImageBody = Static<typeof FingerImageBody>;
type ProbeBody = Static<typeof FingerProbeBody>;

const dpiOf = (dpi: string | number | undefined): number => (dpi === undefined ? 500 : Number(dpi));

/** The probe image of verify, identify or match, with the resolution it was scanned at. */
async function probeOf(body: ProbeBody, field = 'imageData') {
  const image = await imageFieldOf(body, field, 'finger');
  // The decoded bytes are all the request needs from here on; a megabytes-long base64 string kept by
  // the body for the seconds extraction takes would outlive the young generation and need a full GC.
  body.imageData = '';
  return { image, dpi: dpiOf(body.dpi) };
}

const ok = (code: number, message: string) => ({ code, message });
const DecisionResponse = Type.Object({ result: Result, ...DecisionFields });

/** The enroll/update sample: the probe with its finger position. */
async function sampleOf(body: ImageBody) {
  return { ...(await probeOf(body)), position: body.position ?? 'UNKNOWN' };
}

/** Routes of the fingerprint group (spec: Fingerprint). Note the spec's camelCase list items. */
export function fingerRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  const finger = services.finger;
  return async (app) => {
    app.addHook('onRequest', authenticate);

    app.get(`${BASE}/count`, { schema: { tags, security, summary: 'Number of fingerprint persons', response: { 200: CountBody, ...resultErrors() } } },
      async (request) => ({ count: await finger.count(tenantOf(request)) }));

    app.get(`${BASE}/list`, {
      schema: {
        tags, security, summary: 'Every fingerprint person, oldest first',
        response: { 200: Type.Array(Type.Object({ externalId: Type.String(), createdAt: Timestamp })), ...resultErrors() },
      },
    }, async (request) => (await finger.list(tenantOf(request))).map((p) => ({ externalId: p.extId, createdAt: p.createdAt })));

    app.get(`${BASE}/dump`, {
      schema: {
        tags, security,
        summary: 'Page through every fingerprint person with its ISO/IEC 19794-2:2005 templates (extension: not in the spec)',
        description: 'The fingerprint counterpart of the face dump, used by station-to-station sync. Same paging as the face dump, and the same `since` extension (change feed); a person with a document record carries it as `document`.',
        querystring: FeedQuery,
        response: { 200: FingerDumpResponse, ...resultErrors(400) },
      },
    }, async (request) => {
      const feed = await feedPage('finger', tenantOf(request), request.query);
      if (feed) return feed;
      const { page, limit } = pagingOf(request.query);
      const { total, persons } = await finger.dump(tenantOf(request), page, limit);
      const documents = await documentsOf(tenantOf(request), persons.map((p) => p.extId));
      return {
        result: {
          total_entries: total,
          fingers: persons.map((p) => ({
            externalId: p.extId,
            templates: p.templates.map((t) => ({ data: encodeBase64(t.data), position: t.position })),
            createdAt: p.createdAt,
            updatedAt: p.updatedAt,
            ...(p.version ? { version: p.version } : {}),
            ...(documents.has(p.extId) ? { document: documents.get(p.extId) } : {}),
          })),
        },
      };
    });

    app.get(`${BASE}/templates/count/:ext_id`, {
      schema: { tags, security, summary: 'Number of fingerprint templates of a person', params: ExtIdParams, response: { 200: CountBody, ...resultErrors(400, 404) } },
    }, async (request) => ({ count: await finger.templateCount(tenantOf(request), (request.params as Params).ext_id) }));

    app.post(`${BASE}/enroll/:ext_id`, {
      schema: {
        tags, security, summary: 'Enroll a fingerprint: creates the person, or adds a finger/impression to it',
        description: 'Up to 20 templates per person (409 TEMPLATE_LIMIT_REACHED beyond). De-duplication (extension): the print is first '
          + 'searched 1:N over the other persons; under the application\'s policy `warn` (default) persons it matched are listed in `duplicates`, '
          + 'under `block` the enroll is refused with 409 DUPLICATE_FOUND (1049) and the same list, under `off` nothing is searched.',
        params: ExtIdParams, body: FingerImageBody,
        response: { 200: Type.Object({ result: Result, duplicates: Duplicates }), ...resultErrors(400, 409, 503), 409: DuplicateRefusal },
      },
    }, async (request, reply) => {
      const sample = await sampleOf(request.body as ImageBody);
      return refusingDuplicates(reply, async () => {
        const { duplicates } = await finger.enroll(tenantOf(request), (request.params as Params).ext_id, sample);
        return { result: ok(1000, 'ENROLLED_SUCCESSFULLY'), ...duplicatesField(duplicates) };
      });
    });

    app.patch(`${BASE}/:ext_id`, {
      schema: {
        tags, security, summary: "Replace all of a person's fingerprint templates with this one",
        params: ExtIdParams, body: FingerImageBody, response: { 200: ResultBody, ...resultErrors(400, 404, 503) },
      },
    }, async (request) => {
      await finger.update(tenantOf(request), (request.params as Params).ext_id, await sampleOf(request.body as ImageBody));
      return { result: ok(1006, 'UPDATED_SUCCESSFULLY') };
    });

    app.delete(`${BASE}/:ext_id`, {
      schema: { tags, security, summary: 'Delete a fingerprint person', params: ExtIdParams, response: { 200: ResultBody, ...resultErrors(400, 404) } },
    }, async (request) => {
      await finger.delete(tenantOf(request), (request.params as Params).ext_id);
      return { result: ok(1004, 'DELETED_SUCCESSFULLY') };
    });

    app.post(`${BASE}/:ext_id/verify`, {
      schema: {
        tags, security, summary: '1:1 against the best of the person\'s templates',
        description: '1002 VERIFIED_SUCCESSFULLY or 1003 NOT_VERIFIED (HTTP 200 both).',
        params: ExtIdParams, body: FingerProbeBody, response: { 200: DecisionResponse, ...resultErrors(400, 404, 503) },
      },
    }, async (request) => {
      const d = await finger.verify(tenantOf(request), (request.params as Params).ext_id, await probeOf(request.body as ProbeBody));
      return { result: d.matched ? ok(1002, 'VERIFIED_SUCCESSFULLY') : ok(1003, 'NOT_VERIFIED'), score: d.score, threshold: d.threshold };
    });

    app.post(`${BASE}/identify`, {
      schema: {
        tags, security, summary: '1:N over every fingerprint template of the application',
        description: '1008 IDENTIFIED_SUCCESSFULLY with ExternalID, or 1009 NOT_IDENTIFIED with ExternalID null.',
        body: FingerProbeBody,
        response: { 200: Type.Object({ ExternalID: Type.Union([Type.String(), Type.Null()]), result: Result, ...DecisionFields, candidates: Candidates }), ...resultErrors(400, 503) },
      },
    }, async (request) => {
      const d = await finger.identify(tenantOf(request), await probeOf(request.body as ProbeBody));
      return {
        ExternalID: d.extId, result: d.extId ? ok(1008, 'IDENTIFIED_SUCCESSFULLY') : ok(1009, 'NOT_IDENTIFIED'), score: d.score, threshold: d.threshold,
        ...candidatesField(d.candidates),
      };
    });

    app.post(`${BASE}/images/match`, {
      schema: {
        tags, security, summary: 'Compare two fingerprint images without enrollment',
        description: 'Top-level `code`: 1010 MATCH_IMAGES_SUCCESSFULLY on a match, 1011 NOT_MATCHED otherwise.',
        body: FingerImagePairBody, response: { 200: CompareResponse, ...resultErrors(400, 503) },
      },
    }, async (request) => {
      const [x, y] = request.body as ProbeBody[];
      const a = await probeOf(x, '[0].imageData');
      const b = await probeOf(y, '[1].imageData');
      const d = await finger.matchImages(tenantOf(request), a, b);
      return { ...(d.matched ? ok(1010, 'MATCH_IMAGES_SUCCESSFULLY') : ok(1011, 'NOT_MATCHED')), score: d.score, threshold: d.threshold };
    });

    app.post(`${BASE}/templates/match`, {
      schema: {
        tags, security, summary: 'Compare two ISO/IEC 19794-2 (2005, 2011) or ANSI INCITS 378-2004 templates',
        description: 'Top-level `code`: 1010 MATCH_TEMPLATES_SUCCESSFULLY on a match, 1011 NOT_MATCHED otherwise; 400 INVALID_TEMPLATE for a malformed record.',
        body: FingerTemplatePairBody, response: { 200: CompareResponse, ...resultErrors(400, 503) },
      },
    }, async (request) => {
      const [a, b] = (request.body as Array<{ b64IsoTemplate: string }>).map((x, i) => decodeBase64Field(x.b64IsoTemplate, `[${i}].b64IsoTemplate`));
      const d = await finger.matchTemplates(tenantOf(request), a, b);
      return { ...(d.matched ? ok(1010, 'MATCH_TEMPLATES_SUCCESSFULLY') : ok(1011, 'NOT_MATCHED')), score: d.score, threshold: d.threshold };
    });
  };
}
