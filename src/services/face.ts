import type { FaceEngine, FaceGallery } from '../face/engine.js';
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
  private async extractChecked(tenant: Tenant, image: Uint8Array, mode: 'enroll' | 'probe', check: boolean): Promise<{ template: Uint8Array; verdict?: LivenessVerdict }> {
    const engine = await this.engine.get();
    const extraction = await engine.extract(image, mode);
    if (!check) return { template: extraction.template };
    if (!this.livenessGate) throw new BiostationError('ENGINE_UNAVAILABLE', 'The passive liveness check is not available on this station');
    const verdict = await this.livenessGate.require(image, extraction.box, tenant.thresholds.liveness);
    return { template: extraction.template, verdict };
  }

  /** verify with the passive check on the probe when `options.doLivenessCheck` (see FaceWriteOptions). */
  override async verify(tenant: Tenant, extId: string, image: Uint8Array, options?: FaceWriteOptions): Promise<FaceDecision & LivenessReport> {
    if (!options?.doLivenessCheck) return super.verify(tenant, extId, image);
    const { template, verdict } = await this.extractChecked(tenant, image, 'probe', true);
    this.checkedProbes.set(image, template);
    try {
      return { ...(await super.verify(tenant, extId, image)), liveness: [verdict!] };
    } finally {
      this.checkedProbes.delete(image);
    }
  }

  /** identify with the passive check on the probe when `options.doLivenessCheck`. */
  override async identify(tenant: Tenant, image: Uint8Array, options?: FaceWriteOptions): Promise<FaceIdentification & LivenessReport> {
    if (!options?.doLivenessCheck) return super.identify(tenant, image);
    const { template, verdict } = await this.extractChecked(tenant, image, 'probe', true);
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
    if (await tenant.store.faces.templateCount(extId) === undefined) throw new BiostationError('PERSON_NOT_FOUND');
    const { templates, liveness } = await this.extractAll(tenant, images, options);
    if (!(await tenant.store.faces.replaceTemplates(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_NOT_FOUND');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return { templates, ...(liveness ? { liveness } : {}) };
  }

  /** Two images, no enrollment. */
  async match(tenant: Tenant, a: Uint8Array, b: Uint8Array, options?: FaceWriteOptions): Promise<FaceDecision & LivenessReport> {
    const engine = await this.engine.get();
    if (options?.doLivenessCheck) {
      const [ca, cb] = await Promise.all([this.extractChecked(tenant, a, 'probe', true), this.extractChecked(tenant, b, 'probe', true)]);
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
    for (const image of images) {
      const { template, verdict } = await this.extractChecked(tenant, image, 'enroll', options.doLivenessCheck);
      templates.push(template);
      if (verdict) liveness.push(verdict);
    }
    return { templates, ...(options.doLivenessCheck ? { liveness } : {}) };
  }
}
