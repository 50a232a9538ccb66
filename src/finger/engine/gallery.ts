import type { FingerGallery, FingerGalleryHit } from '../engine.js';
import { ProbeMatcher } from './matcher/matcher.js';
import type { PreparedTemplate } from './matcher/preparedTemplate.js';
import { prepareRecord } from './fingerprintTemplate.js';

/**
 * In-memory 1:N gallery: templates are parsed and prepared (edge tables) once at `upsert`; `search`
 * prepares the probe once (edge hash) and matches it against every view of every template; a person's
 * score is their best template score. Throws INVALID_TEMPLATE from `upsert`/`search` for bad records.
 */
export class InMemoryFingerGallery implements FingerGallery {
  private readonly persons = new Map<string, PreparedTemplate[]>();

  upsert(extId: string, templates: Uint8Array[]): void {
    const prepared = templates.flatMap((t) => prepareRecord(t).views);
    this.persons.set(extId, prepared);
  }

  remove(extId: string): void {
    this.persons.delete(extId);
  }

  get size(): number {
    return this.persons.size;
  }

  async search(probe: Uint8Array, topK: number): Promise<FingerGalleryHit[]> {
    const matchers = prepareRecord(probe).views.map((v) => new ProbeMatcher(v));
    const hits: FingerGalleryHit[] = [];
    for (const [extId, templates] of this.persons) {
      let best = 0;
      for (const m of matchers) for (const t of templates) best = Math.max(best, m.match(t));
      hits.push({ extId, score: best });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, Math.max(0, topK));
  }
}
