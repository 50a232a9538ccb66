import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { Tenant } from './tenant.js';
import type { PersonRecord, PersonRepository, PersonSummary, TenantStore, TenantStoreProvider } from '../store/types.js';
import { DEFAULT_DEDUP_POLICY, DuplicateFoundError, MAX_DUPLICATES, type DuplicateCandidate } from './dedup.js';
import { GalleryRegistry, type MutableGallery } from './gallery-registry.js';

/** A decision with its evidence: the similarity and the threshold it was held against. */
export interface Decision {
  matched: boolean;
  score: number;
  threshold: number;
}

export interface Identification extends Decision {
  /** The best person when `matched`, else null. */
  extId: string | null;
  /** Every person at or above the threshold among the best IDENTIFY_TOP_K, best first (the first is `extId`). */
  candidates: GalleryHit[];
}

/** How many persons a 1:N search ranks for the candidates list. */
export const IDENTIFY_TOP_K = 5;

/** One 1:N search result: a person and its best template's score. */
export interface GalleryHit {
  extId: string;
  score: number;
}

/** What the directory needs of a modality's engine. */
export interface MatchingEngine<G> {
  /** 1:1 threshold (verify, match) calibrated by the engine. */
  readonly defaultThreshold: number;
  similarity(a: Uint8Array, b: Uint8Array): number;
  createGallery(): G;
}

/** The few ways the modalities differ in their decisions. */
export interface ModalityRules {
  /** Key of the application's own threshold (`tenant.thresholds`). */
  thresholdKey: 'face' | 'finger';
  /** Score reported by identify when the gallery is empty (the lowest score the engine gives). */
  lowestScore: number;
  /** Decimals of the reported score. */
  scoreDecimals: number;
}

/**
 * The operations every modality shares over one application's store: count, list, dump, delete, and
 * the 1:1 / 1:N decisions (verify against the best of a person's templates, identify over the
 * application's gallery), with the per-application 1:N galleries kept in step with the store. Face
 * and fingerprint services extend it with their engine's extraction and their write rules.
 */
export abstract class PersonDirectory<E extends MatchingEngine<G>, G extends MutableGallery, S = Uint8Array> {
  protected readonly galleries: GalleryRegistry<G>;

  protected constructor(
    protected readonly engine: EngineSlot<E>,
    private readonly pick: (store: TenantStore) => PersonRepository,
    stores: TenantStoreProvider,
    private readonly rules: ModalityRules,
  ) {
    const repositoryOf = async (applicationId: string) => this.pick(await stores.forApplication(applicationId));
    this.galleries = new GalleryRegistry(async () => (await engine.get()).createGallery(), {
      allTemplates: async (applicationId) => (await repositoryOf(applicationId)).allTemplates(),
      revision: async (applicationId) => (await repositoryOf(applicationId)).revision(),
    }, rules.thresholdKey, stores.unreadable);
  }

  /**
   * The probe template of one sample (lenient extraction: the dominant face, any usable print). A
   * sample is the modality's probe input: the image bytes for faces, the image with its scan
   * resolution for fingerprints.
   */
  protected abstract probe(engine: E, sample: S): Promise<Uint8Array>;

  /** Best `topK` persons of the gallery for the probe, best first. */
  protected abstract search(gallery: G, probe: Uint8Array, topK: number): Promise<GalleryHit[]>;

  /** The engine's 1:N threshold (stricter than 1:1 where the engine calibrates one). */
  protected abstract identifyThreshold(engine: E): number;

  /** The tenant's repository of this modality. */
  protected repository(tenant: Tenant): PersonRepository {
    return this.pick(tenant.store);
  }

  count(tenant: Tenant): Promise<number> {
    return this.repository(tenant).count();
  }

  list(tenant: Tenant): Promise<PersonSummary[]> {
    return this.repository(tenant).list();
  }

  /** @throws PERSON_NOT_FOUND */
  async templateCount(tenant: Tenant, extId: string): Promise<number> {
    const n = await this.repository(tenant).templateCount(extId);
    if (n === undefined) throw new BiostationError('PERSON_NOT_FOUND');
    return n;
  }

  /** Releases the galleries (worker threads) at shutdown. */
  close(): Promise<void> {
    return this.galleries.close();
  }

  /** Page `page` (1-based) of `limit` persons with their templates, and the total. */
  async dump(tenant: Tenant, page: number, limit: number): Promise<{ total: number; persons: PersonRecord[] }> {
    const repository = this.repository(tenant);
    const [total, persons] = await Promise.all([repository.count(), repository.page((page - 1) * limit, limit)]);
    return { total, persons };
  }

  /** Deletes the person and its templates, from the store and then from the gallery. @throws PERSON_NOT_FOUND */
  async delete(tenant: Tenant, extId: string): Promise<void> {
    if (!(await this.repository(tenant).delete(extId))) throw new BiostationError('PERSON_NOT_FOUND');
    await this.galleries.applyRemove(tenant.applicationId, extId);
  }

  /** 1:1: the probe against the best of the person's templates. @throws PERSON_NOT_FOUND, the engine's input errors */
  async verify(tenant: Tenant, extId: string, sample: S): Promise<Decision> {
    const person = await this.repository(tenant).find(extId);
    if (!person) throw new BiostationError('PERSON_NOT_FOUND');
    const engine = await this.engine.get();
    const probe = await this.probe(engine, sample);
    let score = -Infinity;
    for (const t of person.templates) score = Math.max(score, engine.similarity(probe, t.data));
    return this.decide(tenant, score, engine.defaultThreshold);
  }

  /** 1:N over every template of the application; a person's score is its best template's. */
  async identify(tenant: Tenant, sample: S): Promise<Identification> {
    const engine = await this.engine.get();
    const probe = await this.probe(engine, sample);
    const gallery = await this.galleries.get(tenant.applicationId);
    const hits = await this.search(gallery, probe, IDENTIFY_TOP_K);
    const best = hits[0];
    const decision = this.decide(tenant, best ? best.score : this.rules.lowestScore, this.identifyThreshold(engine));
    const candidates = hits
      .filter((h) => h.score >= decision.threshold)
      .map((h) => ({ extId: h.extId, score: this.decide(tenant, h.score, decision.threshold).score }));
    return { ...decision, extId: decision.matched && best ? best.extId : null, candidates };
  }

  /**
   * De-duplication before an enroll (src/services/dedup.ts): with the tenant's policy off, nothing;
   * else a 1:N search of each template over the application's gallery, keeping persons other than
   * `extId` at or above the 1:N threshold (best score per person, best first, at most
   * MAX_DUPLICATES). @throws DuplicateFoundError (DUPLICATE_FOUND) under `block` when any is found.
   * @returns the candidates under `warn` (possibly empty), undefined under `off`.
   */
  protected async checkDuplicates(tenant: Tenant, extId: string, templates: Uint8Array[]): Promise<DuplicateCandidate[] | undefined> {
    const policy = tenant.dedupPolicy ?? DEFAULT_DEDUP_POLICY;
    if (policy === 'off') return undefined;
    const engine = await this.engine.get();
    const threshold = tenant.thresholds[this.rules.thresholdKey] ?? this.identifyThreshold(engine);
    const gallery = await this.galleries.get(tenant.applicationId);
    const best = new Map<string, number>();
    for (const template of templates) {
      for (const hit of await this.search(gallery, template, MAX_DUPLICATES + 1)) {
        if (hit.extId === extId || hit.score < threshold) continue;
        best.set(hit.extId, Math.max(best.get(hit.extId) ?? -Infinity, hit.score));
      }
    }
    const scale = 10 ** this.rules.scoreDecimals;
    const found = [...best]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_DUPLICATES)
      .map(([id, score]) => ({ extId: id, modality: this.rules.thresholdKey, score: Math.round(score * scale) / scale }));
    if (policy === 'block' && found.length > 0) throw new DuplicateFoundError(found);
    return found;
  }

  /**
   * The application's own threshold when it set one, else the engine's calibrated one. The score is
   * rounded to the modality's decimals; a score with nothing to compare (no template) reads 0.
   */
  protected decide(tenant: Tenant, score: number, engineThreshold: number): Decision {
    const threshold = tenant.thresholds[this.rules.thresholdKey] ?? engineThreshold;
    const scale = 10 ** this.rules.scoreDecimals;
    return { matched: score >= threshold, score: Number.isFinite(score) ? Math.round(score * scale) / scale : 0, threshold };
  }
}
