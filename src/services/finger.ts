import type { FingerEngine, FingerGallery } from '../finger/engine.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { Tenant } from './tenant.js';
import type { TenantStoreProvider } from '../store/types.js';
import type { DuplicateCandidate } from './dedup.js';
import { PersonDirectory, type Decision, type GalleryHit, type Identification } from './person-directory.js';

export type FingerDecision = Decision;
export type FingerIdentification = Identification;

/** A fingerprint image with its scan resolution in dots per inch (the engine resamples to its own). */
export interface FingerProbe {
  image: Uint8Array;
  dpi: number;
}

export interface FingerSample extends FingerProbe {
  /** Finger position as sent (e.g. "UNKNOWN", "RIGHT_INDEX"). */
  position: string;
}

/** Most templates one fingerprint person holds: ten fingers, two impressions each. */
export const MAX_FINGER_TEMPLATES = 20;

/**
 * Fingerprint business rules over one application's store. A fingerprint body carries one image,
 * so enroll adds one template: it creates the person, or adds a finger or impression to an
 * existing one (up to MAX_FINGER_TEMPLATES). Update replaces all of the person's templates with
 * the one given. Verify is 1:1 against the best template, identify 1:N over the application (same
 * threshold as 1:1).
 */
export class FingerService extends PersonDirectory<FingerEngine, FingerGallery, FingerProbe> {
  constructor(engine: EngineSlot<FingerEngine>, stores: TenantStoreProvider) {
    super(engine, (store) => store.fingers, stores, { thresholdKey: 'finger', lowestScore: 0, scoreDecimals: 4 });
  }

  /**
   * Adds one template (creating the person when new), after the application's de-duplication
   * search against every other person (see checkDuplicates): `duplicates` under `warn`, absent under `off`.
   * @throws TEMPLATE_LIMIT_REACHED when the person is full; DUPLICATE_FOUND (policy `block`); the engine's input errors.
   */
  async enroll(tenant: Tenant, extId: string, sample: FingerSample): Promise<{ duplicates?: DuplicateCandidate[] }> {
    const existing = (await tenant.store.fingers.templateCount(extId)) ?? 0;
    if (existing >= MAX_FINGER_TEMPLATES) {
      throw new BiostationError('TEMPLATE_LIMIT_REACHED', `The person already holds ${MAX_FINGER_TEMPLATES} fingerprint templates`);
    }
    const data = await this.extract(sample);
    const duplicates = await this.checkDuplicates(tenant, extId, [data]);
    const person = await tenant.store.fingers.appendTemplates(extId, [{ data, position: sample.position }], new Date().toISOString());
    await this.galleries.applyUpsert(tenant.applicationId, extId, person.templates.map((t) => t.data));
    return { duplicates };
  }

  /** @throws PERSON_NOT_FOUND, the engine's input errors. */
  async update(tenant: Tenant, extId: string, sample: FingerSample): Promise<void> {
    if ((await tenant.store.fingers.templateCount(extId)) === undefined) throw new BiostationError('PERSON_NOT_FOUND');
    const data = await this.extract(sample);
    if (!(await tenant.store.fingers.replaceTemplates(extId, [{ data, position: sample.position }], new Date().toISOString()))) {
      throw new BiostationError('PERSON_NOT_FOUND');
    }
    await this.galleries.applyUpsert(tenant.applicationId, extId, [data]);
  }

  /** Two images, each at its own resolution. @throws the engine's input errors */
  async matchImages(tenant: Tenant, a: FingerProbe, b: FingerProbe): Promise<FingerDecision> {
    const engine = await this.engine.get();
    const [ta, tb] = await Promise.all([this.probe(engine, a), this.probe(engine, b)]);
    return this.decide(tenant, engine.similarity(ta, tb), engine.defaultThreshold);
  }

  /** Two ISO/ANSI records. @throws INVALID_TEMPLATE */
  async matchTemplates(tenant: Tenant, a: Uint8Array, b: Uint8Array): Promise<FingerDecision> {
    const engine = await this.engine.get();
    return this.decide(tenant, engine.similarityOfInterchange(a, b), engine.defaultThreshold);
  }

  protected async probe(engine: FingerEngine, sample: FingerProbe): Promise<Uint8Array> {
    return (await engine.extract(sample.image, { dpi: sample.dpi })).template;
  }

  protected search(gallery: FingerGallery, probe: Uint8Array, topK: number): Promise<GalleryHit[]> {
    return gallery.search(probe, topK);
  }

  protected identifyThreshold(engine: FingerEngine): number {
    return engine.defaultThreshold;
  }

  private async extract(sample: FingerSample): Promise<Uint8Array> {
    const engine = await this.engine.get();
    return (await engine.extract(sample.image, { dpi: sample.dpi })).template;
  }
}
