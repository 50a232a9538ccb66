import type { FaceEngine, FaceGallery } from '../face/engine.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { Tenant } from '../runtime/tenant.js';
import type { PersonRecord, TenantStoreProvider } from '../store/types.js';
import type { DuplicateCandidate } from './dedup.js';
import { PersonDirectory, type Decision, type GalleryHit, type Identification } from './person-directory.js';

/** A face decision with its evidence: the similarity and the threshold it was held against. */
export type FaceDecision = Decision;
export type FaceIdentification = Identification;

export interface FaceWriteOptions {
  /** Passive liveness requested by the client (see `livenessEvaluated` in the results). */
  doLivenessCheck: boolean;
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
  constructor(engine: EngineSlot<FaceEngine>, stores: TenantStoreProvider) {
    super(engine, (store) => store.faces, stores, { thresholdKey: 'face', lowestScore: -1, scoreDecimals: 6 });
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
  async enroll(tenant: Tenant, extId: string, images: Uint8Array[], _options: FaceWriteOptions): Promise<{ templates: Uint8Array[]; duplicates?: DuplicateCandidate[] }> {
    if (await tenant.store.faces.templateCount(extId) !== undefined) throw new BiostationError('PERSON_ALREADY_EXISTS');
    const templates = await this.extractAll(images);
    const duplicates = await this.checkDuplicates(tenant, extId, templates);
    if (!(await tenant.store.faces.create(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_ALREADY_EXISTS');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return { templates, duplicates };
  }

  /** Replaces all templates of an enrolled person. @throws PERSON_NOT_FOUND, the engine's input errors. */
  async update(tenant: Tenant, extId: string, images: Uint8Array[], _options: FaceWriteOptions): Promise<Uint8Array[]> {
    if (await tenant.store.faces.templateCount(extId) === undefined) throw new BiostationError('PERSON_NOT_FOUND');
    const templates = await this.extractAll(images);
    if (!(await tenant.store.faces.replaceTemplates(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_NOT_FOUND');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return templates;
  }

  /** Two images, no enrollment. */
  async match(tenant: Tenant, a: Uint8Array, b: Uint8Array): Promise<FaceDecision> {
    const engine = await this.engine.get();
    const [ta, tb] = await Promise.all([engine.extract(a, 'probe'), engine.extract(b, 'probe')]);
    return this.decide(tenant, engine.similarity(ta.template, tb.template), engine.defaultThreshold);
  }

  protected async probe(engine: FaceEngine, image: Uint8Array): Promise<Uint8Array> {
    return (await engine.extract(image, 'probe')).template;
  }

  protected search(gallery: FaceGallery, probe: Uint8Array, topK: number): Promise<GalleryHit[]> {
    return gallery.searchAsync(probe, topK);
  }

  protected identifyThreshold(engine: FaceEngine): number {
    return engine.identifyThreshold;
  }

  private async extractAll(images: Uint8Array[]): Promise<Uint8Array[]> {
    const engine = await this.engine.get();
    const templates: Uint8Array[] = [];
    for (const image of images) templates.push((await engine.extract(image, 'enroll')).template);
    return templates;
  }
}
