import type { FaceEngine, FaceGallery } from './engine.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import { PersonDirectory } from '../runtime/person-directory.js';
import type { Tenant } from '../runtime/tenant.js';
import type { PersonRecord, TenantStoreProvider } from '../store/types.js';

/** A decision with its evidence: the similarity and the threshold it was held against. */
export interface FaceDecision {
  matched: boolean;
  score: number;
  threshold: number;
}

export interface FaceIdentification extends FaceDecision {
  /** The best person when `matched`, else null. */
  extId: string | null;
}

export interface FaceWriteOptions {
  /** Passive liveness requested by the client (see `livenessEvaluated` in the results). */
  doLivenessCheck: boolean;
}

/** Most templates one face person holds (one per enrolled image). */
export const MAX_FACE_TEMPLATES = 10;

/**
 * Face business rules over one application's store: enroll creates (PERSON_ALREADY_EXISTS when
 * the ext_id is taken), update replaces all templates (PERSON_NOT_FOUND when unknown), verify is
 * 1:1 against the best of the person's templates, identify is 1:N over the application's gallery,
 * match compares two images without enrollment. Images are reduced to templates and dropped.
 */
export class FaceService extends PersonDirectory<FaceGallery> {
  constructor(
    private readonly engine: EngineSlot<FaceEngine>,
    stores: TenantStoreProvider,
  ) {
    super((store) => store.faces, async () => (await engine.get()).createGallery(), (id) => stores.forApplication(id));
  }

  /** @throws PERSON_NOT_FOUND */
  async templates(tenant: Tenant, extId: string): Promise<PersonRecord> {
    const person = await tenant.store.faces.find(extId);
    if (!person) throw new BiostationError('PERSON_NOT_FOUND');
    return person;
  }

  /**
   * Enrolls a new person from one template per image (each image must hold one dominant face of
   * enrollment quality). @throws PERSON_ALREADY_EXISTS, the engine's input errors.
   */
  async enroll(tenant: Tenant, extId: string, images: Uint8Array[], _options: FaceWriteOptions): Promise<Uint8Array[]> {
    if (await tenant.store.faces.templateCount(extId) !== undefined) throw new BiostationError('PERSON_ALREADY_EXISTS');
    const templates = await this.extractAll(images);
    if (!(await tenant.store.faces.create(extId, templates.map((data) => ({ data })), new Date().toISOString()))) {
      throw new BiostationError('PERSON_ALREADY_EXISTS');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, templates);
    return templates;
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

  /** 1:1: the probe's dominant face against the best of the person's templates. @throws PERSON_NOT_FOUND */
  async verify(tenant: Tenant, extId: string, image: Uint8Array): Promise<FaceDecision> {
    const person = await tenant.store.faces.find(extId);
    if (!person) throw new BiostationError('PERSON_NOT_FOUND');
    const engine = await this.engine.get();
    const probe = (await engine.extract(image, 'probe')).template;
    let score = -Infinity;
    for (const t of person.templates) score = Math.max(score, engine.similarity(probe, t.data));
    return this.decide(tenant, engine, score);
  }

  /** 1:N over every template of the application; a person's score is its best template's. */
  async identify(tenant: Tenant, image: Uint8Array): Promise<FaceIdentification> {
    const engine = await this.engine.get();
    const probe = (await engine.extract(image, 'probe')).template;
    const gallery = await this.galleries.get(tenant.applicationId);
    const [best] = await gallery.searchAsync(probe, 1);
    const decision = this.decide(tenant, engine, best ? best.score : -1, engine.identifyThreshold);
    return { ...decision, extId: decision.matched && best ? best.extId : null };
  }

  /** Two images, no enrollment. */
  async match(tenant: Tenant, a: Uint8Array, b: Uint8Array): Promise<FaceDecision> {
    const engine = await this.engine.get();
    const [ta, tb] = await Promise.all([engine.extract(a, 'probe'), engine.extract(b, 'probe')]);
    return this.decide(tenant, engine, engine.similarity(ta.template, tb.template));
  }

  private async extractAll(images: Uint8Array[]): Promise<Uint8Array[]> {
    const engine = await this.engine.get();
    const templates: Uint8Array[] = [];
    for (const image of images) templates.push((await engine.extract(image, 'enroll')).template);
    return templates;
  }

  /**
   * The application's own threshold when it set one, else the engine's calibrated one: FAR 1e-3
   * per comparison for 1:1, stricter for 1:N, where every enrolled person is a chance of a false match.
   */
  private decide(tenant: Tenant, engine: FaceEngine, score: number, engineThreshold = engine.defaultThreshold): FaceDecision {
    const threshold = tenant.thresholds.face ?? engineThreshold;
    return { matched: score >= threshold, score: round(score), threshold };
  }
}

const round = (x: number): number => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : 0);
