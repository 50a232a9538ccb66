import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { BiostationError } from '../../runtime/errors.js';
import type { LivenessVerdict } from '../../liveness/passive/gate.js';
import type { SessionVerdict } from '../../liveness/passive/frames.js';
import type { PersonRecord } from '../../store/types.js';
import { tenantOf } from '../auth.js';
import { encodeBase64 } from '../../runtime/base64.js';
import { imageFieldOf } from '../image-limits.js';
import type { Authenticate, StationServices } from '../context.js';
import { FaceDumpResponse, FeedQuery, documentsOf, feedPage } from './sync-feed.js';
import { Candidates, DuplicateRefusal, Duplicates, candidatesField, duplicatesField, refusingDuplicates } from './dedup.js';
import {
  CountBody, DecisionFields, DumpQuery, ExtIdParams, FaceBody, FaceMatchBody, FaceRecord, Result, ResultBody, Timestamp, pagingOf, resultErrors,
} from '../schemas.js';

const BASE = '/api/v1/services/face';
const tags = ['face'];
const security = [{ bearerAuth: [] }];

type FaceBodyT = Static<typeof FaceBody>;
type Params = Static<typeof ExtIdParams>;

const ok = (code: number, message: string) => ({ code, message });

/** Images of a face body, decoded and within the image limits. @throws INVALID_IMAGE_TYPE, INVALID_BASE64, IMAGE_TOO_LARGE */
const imagesOf = async (body: Pick<FaceBodyT, 'Images'>): Promise<Uint8Array[]> => (await imageItemsOf(body.Images, 'Images'))!;

/**
 * Decoded image items of body field `field` (Images, or the livenessFrames extension), within the image
 * limits, or undefined when absent. The bytes are what the request needs now: each item's base64 is
 * dropped once decoded (see sampleOf in finger.ts). @throws INVALID_IMAGE_TYPE, INVALID_BASE64, IMAGE_TOO_LARGE
 */
async function imageItemsOf(items: FaceBodyT['Images'] | undefined, field: string): Promise<Uint8Array[] | undefined> {
  if (!items) return undefined;
  const frames: Uint8Array[] = [];
  for (const [i, item] of items.entries()) {
    if (item.imageType !== undefined && item.imageType !== 'frontal') throw new BiostationError('INVALID_IMAGE_TYPE', `${field}[${i}].imageType must be "frontal"`);
    frames.push(await imageFieldOf(item, `${field}[${i}].imageData`, 'face'));
    item.imageData = '';
  }
  return frames;
}

/** The face service's liveness options of a face body. */
const livenessOptions = async (body: FaceBodyT) => ({
  doLivenessCheck: !!body.doLivenessCheck,
  ...(body.livenessFrames ? { livenessFrames: await imageItemsOf(body.livenessFrames, 'livenessFrames') } : {}),
});

/**
 * Added to a body whose client asked for liveness (extension): the passive check's verdicts. `score` is
 * the lowest of the images' fused probabilities, `scores` each image's in order. Nothing is added
 * when the client did not ask (the response is then exactly as without liveness).
 */
const livenessNote = (body: { doLivenessCheck?: boolean }, verdicts?: LivenessVerdict[]) => {
  if (!body.doLivenessCheck || !verdicts || verdicts.length === 0) return {};
  const sessions = verdicts.flatMap((v, image) => ('frames' in v ? [{ image, ...(v as SessionVerdict).frames }] : []));
  return {
    livenessEvaluated: true,
    liveness: {
      score: Math.min(...verdicts.map((v) => v.score)), threshold: verdicts[0].threshold, mode: verdicts[0].mode, scores: verdicts.map((v) => v.score),
      ...(sessions.length > 0 ? { sessions } : {}),
    },
  };
};

const faceRecord = (p: PersonRecord) => ({
  ExternalID: p.extId,
  Templates: p.templates.map((t) => ({ Data: encodeBase64(t.data) })),
  CreatedAt: p.createdAt,
  UpdatedAt: p.updatedAt,
  ...(p.version ? { Version: p.version } : {}),
});

/** The shape of frames.ts FramesNote (with the image index in `sessions`). */
const FramesNoteSchema = () => Type.Object({
  image: Type.Integer({ description: 'Index in Images of the image these frames go with' }),
  rule: Type.Literal('mean-log-odds', { description: 'Mean of log(P/(1-P)) over the image and its judged frames, against logit(threshold)' }),
  imageScore: Type.Number({ description: "The image's own probability" }),
  scores: Type.Array(Type.Union([Type.Number(), Type.Null()]), { description: "Each frame's probability in request order; null: dropped by the quality gates" }),
  dropped: Type.Array(Type.Object({ index: Type.Integer(), failures: Type.Array(Type.String()) }), { description: 'Frames left out of the mean as too poor to judge, with the gates they failed' }),
  used: Type.Integer({ description: 'Images in the mean (the image plus its judged frames)' }),
});

const LivenessNote = {
  livenessEvaluated: Type.Optional(Type.Boolean({ description: 'Present (true) when doLivenessCheck was asked and every image passed the passive check' })),
  liveness: Type.Optional(Type.Object({
    score: Type.Number({ description: 'Lowest fused probability of a live face over the images, 0..1' }),
    threshold: Type.Number({ description: "The threshold held against (the application's, else the engine's default)" }),
    mode: Type.String({ description: "'cnn+signals' (a station without the liveness network refuses the check: 503 ENGINE_UNAVAILABLE)" }),
    scores: Type.Optional(Type.Array(Type.Number(), { description: "Each image's probability, in order" })),
    evidence: Type.Optional(Type.Array(Type.String(), { description: 'With 1013: the inputs that weighed most against liveness (cnn, spectralPeak, chromaPeak, highFreq, border, glare, chroma, faceSharpness, depthOfField, texture), worst first' })),
    sessions: Type.Optional(Type.Array(FramesNoteSchema(), { description: 'Only with livenessFrames: each image judged with its frames (its entry in `scores` is then the session\'s probability). With 1013 the same fields sit in `liveness.frames` (no `image`)' })),
  }, { description: 'Extension: the passive liveness verdict (only with doLivenessCheck true). A presentation attack is answered instead with HTTP 200 and result 1013 LIVENESS_CHECK_FAILED, detail "liveness check failed", this object (score, threshold, mode, evidence) beside it, and nothing is stored or compared; a face too poor to judge gives 400 FACE_QUALITY_TOO_LOW (1027).' })),
};
const WriteResponse = Type.Object({ result: Result, b64Templates: Type.Optional(Type.Array(Type.String())), ...LivenessNote });
const EnrollResponse = Type.Object({ result: Result, b64Templates: Type.Optional(Type.Array(Type.String())), ...LivenessNote, duplicates: Duplicates });
const DecisionResponse = Type.Object({ result: Result, ...DecisionFields, ...LivenessNote });

/** Routes of the face group (spec: Face). Thin: validate, call FaceService, shape the spec's body. */
export function faceRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  const face = services.face;
  return async (app) => {
    app.addHook('onRequest', authenticate);

    app.get(`${BASE}/count`, { schema: { tags, security, summary: 'Number of faces (persons) in the application', response: { 200: CountBody, ...resultErrors() } } },
      async (request) => ({ count: await face.count(tenantOf(request)) }));

    app.get(`${BASE}/list`, {
      schema: {
        tags, security, summary: 'Every face person of the application, oldest first',
        response: { 200: Type.Object({ faces: Type.Array(Type.Object({ ExternalID: Type.String(), CreatedAt: Timestamp })) }), ...resultErrors() },
      },
    }, async (request) => ({
      faces: (await face.list(tenantOf(request))).map((p) => ({ ExternalID: p.extId, CreatedAt: p.createdAt })),
    }));

    app.get(`${BASE}/dump`, {
      schema: {
        tags, security,
        summary: 'Page through every face with its templates (device loading, moving between applications)',
        description: '`page` is 1-based (default 1); `limit` is 1..1000 (default 100). Pages follow enrollment order and are disjoint. ' +
          'Extension: a person with a document record (PUT /api/v1/persons/{ext_id}/document) carries it as `Document`. ' +
          'Extension: `since` answers the change feed after that sequence number instead (persons with Version and Seq, `tombstones`, `next_since`; see README, station sync).',
        querystring: FeedQuery,
        response: { 200: FaceDumpResponse, ...resultErrors(400) },
      },
    }, async (request) => {
      const feed = await feedPage('face', tenantOf(request), request.query);
      if (feed) return feed;
      const { page, limit } = pagingOf(request.query);
      const { total, persons } = await face.dump(tenantOf(request), page, limit);
      const documents = await documentsOf(tenantOf(request), persons.map((p) => p.extId));
      return { result: { total_entries: total, faces: persons.map((p) => ({ ...faceRecord(p), ...(documents.has(p.extId) ? { Document: documents.get(p.extId) } : {}) })) } };
    });

    app.get(`${BASE}/templates/count/:ext_id`, {
      schema: { tags, security, summary: 'Number of templates of a face', params: ExtIdParams, response: { 200: CountBody, ...resultErrors(400, 404) } },
    }, async (request) => ({ count: await face.templateCount(tenantOf(request), (request.params as Params).ext_id) }));

    app.get(`${BASE}/templates/:ext_id`, {
      schema: { tags, security, summary: 'A face with its templates', params: ExtIdParams, response: { 200: FaceRecord, ...resultErrors(400, 404) } },
    }, async (request) => faceRecord(await face.templates(tenantOf(request), (request.params as Params).ext_id)));

    app.post(`${BASE}/enroll/:ext_id`, {
      schema: {
        tags, security, summary: 'Enroll a new person from one or more face images (one template per image)',
        description: '409 PERSON_ALREADY_EXISTS when the ext_id is taken (use PATCH to replace templates). De-duplication (extension): '
          + 'the face is first searched 1:N; under the application\'s policy `warn` (default) persons it matched are listed in `duplicates`, '
          + 'under `block` the enroll is refused with 409 DUPLICATE_FOUND (1049) and the same list, under `off` nothing is searched.',
        params: ExtIdParams, body: FaceBody, response: { 200: EnrollResponse, ...resultErrors(400, 409, 503), 409: DuplicateRefusal },
      },
    }, async (request, reply) => {
      const body = request.body as FaceBodyT;
      const images = await imagesOf(body);
      return refusingDuplicates(reply, async () => {
        const { templates, duplicates, liveness } = await face.enroll(tenantOf(request), (request.params as Params).ext_id, images, await livenessOptions(body));
        return {
          result: ok(1000, 'ENROLLED_SUCCESSFULLY'),
          ...(body.ReturnTemplate ? { b64Templates: templates.map(encodeBase64) } : {}),
          ...livenessNote(body, liveness),
          ...duplicatesField(duplicates),
        };
      });
    });

    app.patch(`${BASE}/:ext_id`, {
      schema: {
        tags, security, summary: "Replace all of a person's face templates",
        description: 'With ReturnTemplate true the result is 1000 ENROLLED_SUCCESSFULLY with b64Templates (as the spec shows), else 1006.',
        params: ExtIdParams, body: FaceBody, response: { 200: WriteResponse, ...resultErrors(400, 404, 503) },
      },
    }, async (request) => {
      const body = request.body as FaceBodyT;
      const { templates, liveness } = await face.update(tenantOf(request), (request.params as Params).ext_id, await imagesOf(body), await livenessOptions(body));
      return body.ReturnTemplate
        ? { result: ok(1000, 'ENROLLED_SUCCESSFULLY'), b64Templates: templates.map(encodeBase64), ...livenessNote(body, liveness) }
        : { result: ok(1006, 'UPDATED_SUCCESSFULLY'), ...livenessNote(body, liveness) };
    });

    app.delete(`${BASE}/:ext_id`, {
      schema: { tags, security, summary: 'Delete a face person and its templates', params: ExtIdParams, response: { 200: ResultBody, ...resultErrors(400, 404) } },
    }, async (request) => {
      await face.delete(tenantOf(request), (request.params as Params).ext_id);
      return { result: ok(1004, 'DELETED_SUCCESSFULLY') };
    });

    app.post(`${BASE}/:ext_id/verify`, {
      schema: {
        tags, security, summary: '1:1: does the image show this person?',
        description: '1002 VERIFIED_SUCCESSFULLY on a match, 1003 NOT_VERIFIED otherwise (HTTP 200 both); the first image is used.',
        params: ExtIdParams, body: FaceBody, response: { 200: DecisionResponse, ...resultErrors(400, 404, 503) },
      },
    }, async (request) => {
      const body = request.body as FaceBodyT;
      const [image] = await imagesOf(body);
      const d = await face.verify(tenantOf(request), (request.params as Params).ext_id, image, await livenessOptions(body));
      return { result: d.matched ? ok(1002, 'VERIFIED_SUCCESSFULLY') : ok(1003, 'NOT_VERIFIED'), score: d.score, threshold: d.threshold, ...livenessNote(body, d.liveness) };
    });

    app.post(`${BASE}/identify`, {
      schema: {
        tags, security, summary: '1:N: who is this, among the application\'s faces?',
        description: '1008 IDENTIFIED_SUCCESSFULLY with ExternalID, or 1009 NOT_IDENTIFIED with ExternalID null (HTTP 200 both).',
        body: FaceBody,
        response: { 200: Type.Object({ ExternalID: Type.Union([Type.String(), Type.Null()]), result: Result, ...DecisionFields, ...LivenessNote, candidates: Candidates }), ...resultErrors(400, 503) },
      },
    }, async (request) => {
      const body = request.body as FaceBodyT;
      const [image] = await imagesOf(body);
      const d = await face.identify(tenantOf(request), image, await livenessOptions(body));
      return {
        ExternalID: d.extId,
        result: d.extId ? ok(1008, 'IDENTIFIED_SUCCESSFULLY') : ok(1009, 'NOT_IDENTIFIED'),
        score: d.score,
        threshold: d.threshold,
        ...livenessNote(body, d.liveness),
        ...candidatesField(d.candidates),
      };
    });

    app.post(`${BASE}/match`, {
      schema: {
        tags, security, summary: 'Compare two face images without enrollment',
        description: '1002 VERIFIED_SUCCESSFULLY when they show the same person, 1003 NOT_VERIFIED otherwise.',
        body: FaceMatchBody, response: { 200: DecisionResponse, ...resultErrors(400, 503) },
      },
    }, async (request) => {
      const body = request.body as Static<typeof FaceMatchBody>;
      const [a, b] = await imagesOf(body);
      const frames = body.livenessFrames
        ? [(await imageItemsOf(body.livenessFrames[0], 'livenessFrames[0]'))!, (await imageItemsOf(body.livenessFrames[1], 'livenessFrames[1]'))!] as [Uint8Array[], Uint8Array[]]
        : undefined;
      const d = await face.match(tenantOf(request), a, b, { doLivenessCheck: !!body.doLivenessCheck, ...(frames ? { livenessFrames: frames } : {}) });
      return { result: d.matched ? ok(1002, 'VERIFIED_SUCCESSFULLY') : ok(1003, 'NOT_VERIFIED'), score: d.score, threshold: d.threshold, ...livenessNote(body, d.liveness) };
    });
  };
}
