import { ProbeMatcher } from '../matcher/matcher.js';
import type { PreparedTemplate } from '../matcher/prepared-template.js';
import { prepareRecord } from '../fingerprint-template.js';

/** A person's best score. */
export interface ShardHit {
  extId: string;
  score: number;
}

/**
 * One shard of a 1:N gallery (runs in a worker thread or in-process): persons with their prepared
 * templates (every finger view of every record). `search` prepares the probe once and returns the
 * shard's best `topK` persons, best first (person score = best template score).
 */
export class GalleryShard {
  private readonly persons = new Map<string, PreparedTemplate[]>();
  /** Records stored by `defer` and not yet prepared (their persons hold [] in `persons` meanwhile, keeping their order). */
  private readonly pending = new Map<string, Uint8Array[]>();

  upsert(extId: string, templates: Uint8Array[]): void {
    this.pending.delete(extId);
    this.persons.set(
      extId,
      templates.flatMap((t) => prepareRecord(t).views),
    );
  }

  /**
   * `upsert` with the preparation (~0.1 ms per template) left to the next search, which does it in its
   * slices (searchSliced): for the in-process mirror, whose thousands of upserts when a gallery is built
   * would otherwise hold the main thread in one piece (~0.2 s for 2,000 templates). Same persons, same
   * order, same hits. A record that fails to prepare then drops its person, as a shard worker does.
   */
  defer(extId: string, templates: Uint8Array[]): void {
    if (!this.persons.has(extId)) this.persons.set(extId, []);
    this.pending.set(extId, templates);
  }

  remove(extId: string): void {
    this.persons.delete(extId);
    this.pending.delete(extId);
  }

  get size(): number {
    return this.persons.size;
  }

  clear(): void {
    this.persons.clear();
    this.pending.clear();
  }

  /**
   * Best `topK` persons for the probe. Shards holding more than `PREFILTER_MIN_TEMPLATES` templates
   * first rank every template by root votes (`ProbeMatcher.quickScore`, about 4x cheaper than a full
   * comparison) and fully compare only the best `PREFILTER_FRACTION` of them (at least
   * `PREFILTER_MIN_TEMPLATES`); on the FVC sets 96 % of the genuine pairs above the default threshold
   * rank within the top 3 % of impostors by votes, so a mate is rarely lost this way.
   */
  search(probe: Uint8Array, topK: number): ShardHit[] {
    const steps = this.searchSteps(probe, topK);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /**
   * The same search as `search` (same steps in the same order, so the same hits), run in slices of
   * about `sliceMs` ms of this thread's time with the event loop served between slices (setImmediate):
   * for the in-process mirror of a small gallery, whose search runs on the station's main thread
   * (issue #18: up to ~100 ms per enrolment under load, which /health would otherwise wait for).
   */
  async searchSliced(probe: Uint8Array, topK: number, sliceMs = SEARCH_SLICE_MS): Promise<ShardHit[]> {
    const steps = this.searchSteps(probe, topK);
    let sliceEnd = performance.now() + sliceMs;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (performance.now() >= sliceEnd) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceEnd = performance.now() + sliceMs;
      }
    }
  }

  /** The search, pausing (yield) after every SEARCH_STEP_TEMPLATES templates of each pass; returns the hits. */
  private *searchSteps(probe: Uint8Array, topK: number): Generator<void, ShardHit[], void> {
    // Records deferred since the last search first, one person per step (a slice may be followed by a
    // defer, upsert or remove: each entry is read again when its turn comes).
    while (this.pending.size > 0) {
      const [extId, templates] = this.pending.entries().next().value as [string, Uint8Array[]];
      this.pending.delete(extId);
      try {
        this.persons.set(extId, templates.flatMap((t) => prepareRecord(t).views));
      } catch {
        this.persons.delete(extId); // validated by the gallery before; never expected
      }
      yield;
    }
    const matchers = prepareRecord(probe).views.map((v) => new ProbeMatcher(v));
    // A snapshot of the persons: a slice may be followed by an upsert or remove of this shard.
    const owners: string[] = [];
    const templates: PreparedTemplate[] = [];
    for (const [extId, list] of this.persons) {
      for (const t of list) {
        owners.push(extId);
        templates.push(t);
      }
    }
    yield;
    let selected: number[];
    if (templates.length > PREFILTER_MIN_TEMPLATES) {
      const quick = new Float32Array(templates.length);
      for (let i = 0; i < templates.length; i++) {
        let best = 0;
        for (const m of matchers) best = Math.max(best, m.quickScore(templates[i]));
        quick[i] = best;
        if (i % SEARCH_STEP_TEMPLATES === SEARCH_STEP_TEMPLATES - 1) yield;
      }
      const keep = Math.max(PREFILTER_MIN_TEMPLATES, Math.ceil(templates.length * PREFILTER_FRACTION));
      const cut = Float32Array.from(quick).sort()[templates.length - keep];
      selected = [];
      for (let i = 0; i < templates.length; i++) if (quick[i] >= cut) selected.push(i);
    } else {
      selected = templates.map((_, i) => i);
    }
    const best = new Map<string, number>();
    for (let j = 0; j < selected.length; j++) {
      const i = selected[j];
      let score = 0;
      for (const m of matchers) score = Math.max(score, m.match(templates[i]));
      if (score > (best.get(owners[i]) ?? -1)) best.set(owners[i], score);
      if (j % SEARCH_STEP_TEMPLATES === SEARCH_STEP_TEMPLATES - 1) yield;
    }
    return [...best]
      .map(([extId, score]) => ({ extId, score }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  }
}

/** Templates compared between two looks at the clock in searchSliced (a few hundred microseconds of work). */
const SEARCH_STEP_TEMPLATES = 8;
/** Main-thread time one slice of searchSliced may take before it lets the event loop run, ms. */
export const SEARCH_SLICE_MS = 4;

/** Shards with more templates than this pre-select candidates by root votes. */
export const PREFILTER_MIN_TEMPLATES = 1_000;
/** Share of templates kept for full comparison after the vote pre-filter. */
export const PREFILTER_FRACTION = 0.05;
