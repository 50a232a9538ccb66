import type { FingerEngine, FingerGallery } from './engine.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import { PersonDirectory } from '../runtime/person-directory.js';
import type { Tenant } from '../runtime/tenant.js';
import type { TenantStoreProvider } from '../store/types.js';

export interface FingerDecision {
  matched: boolean;
  score: number;
  threshold: number;
}

export interface FingerIdentification extends FingerDecision {
  extId: string | null;
}

export interface FingerSample {
  image: Uint8Array;
  /** Finger position as sent (e.g. "UNKNOWN", "RIGHT_INDEX"). */
  position: string;
  dpi: number;
}

/** Most templates one fingerprint person holds: ten fingers, two impressions each. */
export const MAX_FINGER_TEMPLATES = 20;

/**
 * Fingerprint business rules over one application's store. A fingerprint body carries one image,
 * so enroll adds one template: it creates the person, or adds a finger or impression to an
 * existing one (up to MAX_FINGER_TEMPLATES). Update replaces all of the person's templates with
 * the one given. Verify is 1:1 against the best template, identify 1:N over the application.
 */
export class FingerService extends PersonDirectory<FingerGallery> {
  constructor(
    private readonly engine: EngineSlot<FingerEngine>,
    stores: TenantStoreProvider,
  ) {
    super((store) => store.fingers, async () => (await engine.get()).createGallery(), (id) => stores.forApplication(id));
  }

  /** @throws TEMPLATE_LIMIT_REACHED when the person is full; the engine's input errors. */
  async enroll(tenant: Tenant, extId: string, sample: FingerSample): Promise<void> {
    const existing = (await tenant.store.fingers.templateCount(extId)) ?? 0;
    if (existing >= MAX_FINGER_TEMPLATES) {
      throw new BiostationError('TEMPLATE_LIMIT_REACHED', `The person already holds ${MAX_FINGER_TEMPLATES} fingerprint templates`);
    }
    const data = await this.extract(sample);
    await tenant.store.fingers.appendTemplates(extId, [{ data, position: sample.position }], new Date().toISOString());
    const person = await tenant.store.fingers.find(extId);
    if (person) await this.galleries.applyUpsert(tenant.applicationId, extId, person.templates.map((t) => t.data));
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

  /** @throws PERSON_NOT_FOUND */
  async verify(tenant: Tenant, extId: string, image: Uint8Array): Promise<FingerDecision> {
    const person = await tenant.store.fingers.find(extId);
    if (!person) throw new BiostationError('PERSON_NOT_FOUND');
    const engine = await this.engine.get();
    const probe = (await engine.extract(image)).template;
    let score = 0;
    for (const t of person.templates) score = Math.max(score, engine.similarity(probe, t.data));
    return this.decide(tenant, engine, score);
  }

  async identify(tenant: Tenant, image: Uint8Array): Promise<FingerIdentification> {
    const engine = await this.engine.get();
    const probe = (await engine.extract(image)).template;
    const gallery = await this.galleries.get(tenant.applicationId);
    const [best] = await gallery.search(probe, 1);
    const decision = this.decide(tenant, engine, best ? best.score : 0);
    return { ...decision, extId: decision.matched && best ? best.extId : null };
  }

  async matchImages(tenant: Tenant, a: Uint8Array, b: Uint8Array): Promise<FingerDecision> {
    const engine = await this.engine.get();
    const [ta, tb] = await Promise.all([engine.extract(a), engine.extract(b)]);
    return this.decide(tenant, engine, engine.similarity(ta.template, tb.template));
  }

  /** Two ISO/ANSI records. @throws INVALID_TEMPLATE */
  async matchTemplates(tenant: Tenant, a: Uint8Array, b: Uint8Array): Promise<FingerDecision> {
    const engine = await this.engine.get();
    return this.decide(tenant, engine, engine.similarityOfInterchange(a, b));
  }

  private async extract(sample: FingerSample): Promise<Uint8Array> {
    const engine = await this.engine.get();
    return (await engine.extract(sample.image, { dpi: sample.dpi })).template;
  }

  private decide(tenant: Tenant, engine: FingerEngine, score: number): FingerDecision {
    const threshold = tenant.thresholds.finger ?? engine.defaultThreshold;
    return { matched: score >= threshold, score: Math.round(score * 1e4) / 1e4, threshold };
  }
}
