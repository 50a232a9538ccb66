import type { FaceEngine, FaceExtraction, FaceGallery } from '../face/engine.js';
import { FaceError } from '../face/errors.js';
import { MAX_LIVENESS_FRAMES, frameInconsistency, requireSession } from '../liveness/passive/frames.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { Tenant } from './tenant.js';
import type { PersonRecord, TenantStoreProvider } from '../store/types.js';
import type { DuplicateCandidate } from './dedup.js';
import type { LivenessVerdict, PassiveLivenessGate } from '../liveness/passive/gate.js';
import { PersonDirectory, type Decision, type GalleryHit, type Identification } from './person-directory.js';

/** A face decision with its evidence: the similarity and the threshold it was held against. */
export type FaceDecision = Decision;
export type FaceIdentification = Identification;

export interface FaceWriteOptions {
  /**
   * Passive liveness requested by the client: every image is checked (src/liveness/passive/gate.ts)
   * after its face is extracted and before anything is stored or compared; a presentation attack
   * throws LIVENESS_CHECK_FAILED (1013), a face too poor to judge FACE_QUALITY_TOO_LOW.
   */
  doLivenessCheck: boolean;
  /**
   * Extension (issue #20, src/liveness/passive/frames.ts): up to 4 extra frames of the same capture as the
   * main image (verify / identify: the probe; enroll / update: the first image), judged with it by the mean
   * log-odds rule. Only with doLivenessCheck (else INVALID_REQUEST); each must show the main image's face
   * (LIVENESS_FRAMES_INCONSISTENT otherwise). Never stored, never compared for matching.
   */
  livenessFrames?: Uint8Array[];
}

/** Refuses frames that would be ignored (no check asked) or too many. @throws INVALID_REQUEST */
function checkFramesRequest(doLivenessCheck: boolean, frames: Uint8Array[] | undefined, field = 'livenessFrames'): void {
  if (!frames) return;
  if (!doLivenessCheck) throw new BiostationError('INVALID_REQUEST', `${field} is used only by the passive liveness check: send it with doLivenessCheck true`);
  if (frames.length === 0 || frames.length > MAX_LIVENESS_FRAMES) throw new BiostationError('INVALID_REQUEST', `${field} must hold 1 to ${MAX_LIVENESS_FRAMES} frames`);
}

/** The liveness verdicts of a request's images, in image order (absent when no check was asked for). */
export interface LivenessReport {
  liveness?: LivenessVerdict[];
}

/**
 * Face business rules over one application's store: enroll creates (PERSON_ALREADY_EXISTS when
 * the ext_id is taken), update replaces all templates (PERSON_NOT_FOUND when unknown), verify is
 * 1:1 against the best of the person's templates, identify is 1:N over the application's gallery
 * (FAR 1e-4 threshold, stricter than 1:1's 1e-3: every enrolled person is a chance of a false match),
 * match compares two images without enrollment. Images are reduced to templates and dropped.
 * At most 10 images per enroll or update (the request schema, src/http/schemas.ts), one template each.
 */
export class FaceService extends PersonDirectory<FaceEngine, FaceGallery> {
  constructor(
    engine: EngineSlot<FaceEngine>,
    stores: TenantStoreProvider,
    /** Passive liveness; without it a request asking for the check is refused (ENGINE_UNAVAILABLE), never silently passed. */
    readonly livenessGate?: PassiveLivenessGate,
  ) {
    super(engine, (store) => store.faces, stores, { thresholdKey: 'face', lowestScore: -1, scoreDecimals: 6 });
  }

  /** Probe templates pre-extracted by a liveness-checked call, keyed by the image (see `probe`). */
  private readonly checkedProbes = new WeakMap<Uint8Array, Uint8Array>();

  /**
   * The template of one image in `mode`, with its liveness verdict when `check` (the application's
   * liveness threshold, else the engine's). @throws LIVENESS_CHECK_FAILED, FACE_QUALITY_TOO_LOW, the engine's input errors.
   */
  private async extractChecked(tenant: Tenant, image: Uint8Array, mode: 'enroll' | 'probe', check: boolean, frames?: Uint8Array[]): Promise<{ template: Uint8Array; verdict?: LivenessVerdict }> {
    const engine = await this.engine.get();
    const extraction = await engine.extract(image, mode);
    if (!check) return { template: extraction.template };
    if (!this.livenessGate) throw new BiostationError('ENGINE_UNAVAILABLE', 'The passive liveness check is not available on this station');
    if (!frames) {
      const verdict = await this.livenessGate.require(image, extraction.box, tenant.thresholds.liveness);
      return { template: extraction.template, verdict };
    }
    // The frames are extracted and checked only once the main image has passed the quality gates.
    const faces = () => this.consistentFrames(tenant, engine, extraction, frames);
    const verdict = await requireSession(this.livenessGate, { image, box: extraction.box }, faces, tenant.thresholds.liveness);
    return { template: extraction.template, verdict };
  }

  /**
   * Each frame's face (probe mode), checked to be the main image's person at nearly the same place and
   * scale (frames.ts `frameInconsistency`; similarity against the application's 1:1 threshold, else the
   * engine's). @throws LIVENESS_FRAMES_INCONSISTENT (details.frame: the index), the engine's decode errors.
   */
  private async consistentFrames(tenant: Tenant, engine: FaceEngine, main: FaceExtraction, frames: Uint8Array[]): Promise<Array<{ image: Uint8Array; box: FaceExtraction['box'] }>> {
    const threshold = tenant.thresholds.face ?? engine.defaultThreshold;
    const out: Array<{ image: Uint8Array; box: FaceExtraction['box'] }> = [];
    // Extracted together (the engine's workers may run them side by side), judged in request order.
    const settled = await Promise.allSettled(frames.map((image) => engine.extract(image, 'probe')));
    for (const [i, image] of frames.entries()) {
      const r = settled[i]!;
      let face: FaceExtraction;
      if (r.status === 'fulfilled') face = r.value;
      else {
        const e: unknown = r.reason;
        if (e instanceof FaceError && (e.code === 'NO_FACE' || e.code === 'MULTIPLE_FACES' || e.code === 'FACE_QUALITY_TOO_LOW')) {
          throw new BiostationError('LIVENESS_FRAMES_INCONSISTENT', `livenessFrames[${i}]: ${e.message}`, { frame: i });
        }
        throw e;
      }
      const why = frameInconsistency(main.box, { box: face.box, similarity: engine.similarity(main.template, face.template) }, threshold);
      if (why) throw new BiostationError('LIVENESS_FRAMES_INCONSISTENT', `livenessFrames[${i}] is not the main image's capture: ${why}`, { frame: i });
      out.push({ image, box: face.box });
    }
    return out;
  }

  /** verify with the passive check on the probe when `options.doLivenessCheck` (see FaceWriteOptions). */
  override async verify(tenant: Tenant, extId: string, image: Uint8Array, options?: FaceWriteOptions): Promise<FaceDecision & LivenessReport> {
    checkFramesRequest(!!options?.doLivenessCheck, options?.livenessFrames);
    if (!options?.doLivenessCheck) return super.verify(tenant, extId, image);
    const { template, verdict } = await this.extractChecked(tenant, image, 'probe', true, options.livenessFrames);
    this.checkedProbes.set(image, template);
    try {
      return { ...(await super.verify(tenant, extId, image)), liveness: [verdict!] };
    } finally {
      this.checkedProbes.delete(image);
    }
  }

  /** identify with the passive check on the probe when `options.doLivenessCheck`. */
  override async identify(tenant: Tenant, image: Uint8Array, options?: FaceWriteOptions): Promise<FaceIdentification & LivenessReport> {
    checkFramesRequest(!!options?.doLivenessCheck, options?.livenessFrames);
    if (!options?.doLivenessCheck) return super.identify(tenant, image);
    const { template, verdict } = await this.extractChecked(tenant, image, 'probe', true, options.livenessFrames);
    this.checkedProbes.set(image, template);
    try {
      return { ...(await super.identify(tenant, image)), liveness: [verdict!] };
    } finally {
      this.checkedProbes.delete(image);
    }
  }

  /** @throws PERSON_NOT_FOUND */
  async templates(tenant: Tenant, extId: string): Promise<PersonRecord> {
    const person = await tenant.store.faces.find(extId);
    if (!person) throw new BiostationError('PERSON_NOT_FOUND');
    return person;
  }

  /**
   * Enrolls a new person from one template per image (each image must hold one dominant face of
   * enrollment quality), after the application's de-duplication search (see checkDuplicates).
   * `duplicates` is set under policy `warn` (empty when none matched), absent under `off`.
   * @throws PERSON_ALREADY_EXISTS, DUPLICATE_FOUND (policy `block`), the engine's input errors.
   */
  async enroll(tenant: Tenant, extId: string, images: Uint8Array[], options: FaceWriteOptions): Promise<{ templates: Uint8Array[]; duplicates?: DuplicateCandidate[] } & LivenessReport> {
    checkFramesRequest(options.doLivenessCheck, options.livenessFrames);
    if (await tenant.store.faces.templateCount(extId) !== undefined) throw new BiostationError('PERSON_ALREADY_EXISTS');
    const { templates, liveness } = await this.extractAll(tenant, images, options);
    const duplicates = await this.checkDuplicates(tenant, extId, templates);
    if (!(await tenant.store.faces.create(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_ALREADY_EXISTS');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return { templates, duplicates, ...(liveness ? { liveness } : {}) };
  }

  /** Replaces all templates of an enrolled person. @throws PERSON_NOT_FOUND, the engine's input errors. */
  async update(tenant: Tenant, extId: string, images: Uint8Array[], options: FaceWriteOptions): Promise<{ templates: Uint8Array[] } & LivenessReport> {
    checkFramesRequest(options.doLivenessCheck, options.livenessFrames);
    if (await tenant.store.faces.templateCount(extId) === undefined) throw new BiostationError('PERSON_NOT_FOUND');
    const { templates, liveness } = await this.extractAll(tenant, images, options);
    if (!(await tenant.store.faces.replaceTemplates(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_NOT_FOUND');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return { templates, ...(liveness ? { liveness } : {}) };
  }

  /**
   * Two images, no enrollment. `frames` (extension): each side's livenessFrames (first image's, second's;
   * an empty list for a side without frames).
   */
  async match(tenant: Tenant, a: Uint8Array, b: Uint8Array, options?: Omit<FaceWriteOptions, 'livenessFrames'> & { livenessFrames?: [Uint8Array[], Uint8Array[]] }): Promise<FaceDecision & LivenessReport> {
    const engine = await this.engine.get();
    const frames = options?.livenessFrames?.map((f) => (f.length > 0 ? f : undefined));
    if (options?.livenessFrames) {
      if (!options.doLivenessCheck) checkFramesRequest(false, [], 'livenessFrames');
      options.livenessFrames.forEach((f, i) => f.length > 0 && checkFramesRequest(true, f, `livenessFrames[${i}]`));
      if (!frames![0] && !frames![1]) throw new BiostationError('INVALID_REQUEST', 'livenessFrames holds no frame');
    }
    if (options?.doLivenessCheck) {
      const [ca, cb] = await Promise.all([this.extractChecked(tenant, a, 'probe', true, frames?.[0]), this.extractChecked(tenant, b, 'probe', true, frames?.[1])]);
      return { ...this.decide(tenant, engine.similarity(ca.template, cb.template), engine.defaultThreshold), liveness: [ca.verdict!, cb.verdict!] };
    }
    const [ta, tb] = await Promise.all([engine.extract(a, 'probe'), engine.extract(b, 'probe')]);
    return this.decide(tenant, engine.similarity(ta.template, tb.template), engine.defaultThreshold);
  }

  protected async probe(engine: FaceEngine, image: Uint8Array): Promise<Uint8Array> {
    return this.checkedProbes.get(image) ?? (await engine.extract(image, 'probe')).template;
  }

  protected search(gallery: FaceGallery, probe: Uint8Array, topK: number): Promise<GalleryHit[]> {
    return gallery.searchAsync(probe, topK);
  }

  protected identifyThreshold(engine: FaceEngine): number {
    return engine.identifyThreshold;
  }

  /** Every image's template (enroll mode), each liveness-checked first when asked (nothing is stored until all pass). */
  private async extractAll(tenant: Tenant, images: Uint8Array[], options: FaceWriteOptions): Promise<{ templates: Uint8Array[] } & LivenessReport> {
    const templates: Uint8Array[] = [];
    const liveness: LivenessVerdict[] = [];
    for (const [i, image] of images.entries()) {
      const { template, verdict } = await this.extractChecked(tenant, image, 'enroll', options.doLivenessCheck, i === 0 ? options.livenessFrames : undefined);
      templates.push(template);
      if (verdict) liveness.push(verdict);
    }
    return { templates, ...(options.doLivenessCheck ? { liveness } : {}) };
  }
}
