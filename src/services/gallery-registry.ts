import { FaceError } from '../face/errors.js';
import { FingerError } from '../finger/errors.js';
import { BiostationError } from '../runtime/errors.js';
import { UnreadableTemplates } from '../runtime/unreadable-templates.js';

/** A template the engine refuses to compare (another model version, or unreadable), from either engine. */
function isRefusedTemplate(e: unknown): boolean {
  if (!(e instanceof FaceError || e instanceof FingerError || e instanceof BiostationError)) return false;
  return e.code === 'TEMPLATE_INCOMPATIBLE' || e.code === 'INVALID_TEMPLATE';
}

/** What a 1:N index must offer to be kept in step with the store. */
export interface MutableGallery {
  upsert(extId: string, templates: Uint8Array[]): void;
  remove(extId: string): void;
  /** Releases what the gallery holds beyond memory (worker threads). */
  close?(): Promise<void>;
}

/** Where a registry reads an application's templates and the revision of its store. */
export interface GallerySource {
  allTemplates(applicationId: string): Promise<Array<{ extId: string; templates: Uint8Array[] }>>;
  revision(applicationId: string): Promise<number>;
}

/** How long a replaced gallery stays usable for searches that started before it was replaced. */
const RETIRE_AFTER_MS = 60_000;

interface Entry<G> {
  gallery: Promise<G>;
  /** Store revision this gallery reflects: the one read before loading, plus the writes applied since. */
  revision: number;
}

/**
 * One lazily built gallery per application, kept in step with the store. Writes made through this
 * process are applied to the gallery after the store commits (each raises the store's revision by
 * one, and so the gallery's). Before each search the store's revision is compared with the
 * gallery's: a difference means a write made elsewhere (another API node, another process), and
 * the gallery is rebuilt from the store. upsert and remove are idempotent, so a write both loaded
 * and applied is harmless.
 *
 * A person whose stored templates the engine refuses (TEMPLATE_INCOMPATIBLE: made by another model
 * version, e.g. before an engine upgrade or synced from an older station; INVALID_TEMPLATE) is left
 * out of the gallery, so the rest of the application can still be identified; verify against that
 * person still answers TEMPLATE_INCOMPATIBLE. The count is kept (`skipped`) and a process warning
 * (code BIOSTATION_GALLERY_SKIPPED) names the application once per load. A person with some readable
 * templates keeps those: each refused template is left out, logged at warn with its person and counted
 * (the store's UnreadableTemplates, runtime/unreadable-templates.ts), so that one bad row does not poison the gallery (issue #18).
 */
export class GalleryRegistry<G extends MutableGallery> {
  private readonly entries = new Map<string, Entry<G>>();
  private readonly skippedCounts = new Map<string, number>();

  constructor(
    private readonly build: () => Promise<G>,
    private readonly source: GallerySource,
    private readonly modality: 'face' | 'finger',
    /** Where refused templates are reported: the store's (TenantStoreProvider.unreadable); a private one when none is given. */
    private readonly unreadable: UnreadableTemplates = new UnreadableTemplates(),
  ) {}

  /** The application's up-to-date gallery, (re)loading it when needed. A failed load is retried next time. */
  async get(applicationId: string): Promise<G> {
    const revision = await this.source.revision(applicationId);
    const entry = this.entries.get(applicationId);
    if (entry && entry.revision === revision) return entry.gallery;
    const gallery = (async () => {
      const g = await this.build();
      let skipped = 0;
      for (const person of await this.source.allTemplates(applicationId)) {
        try {
          g.upsert(person.extId, person.templates);
        } catch (e) {
          if (!isRefusedTemplate(e)) throw e;
          const readable = this.readableTemplates(g, applicationId, person.extId, person.templates);
          if (readable.length > 0) g.upsert(person.extId, readable);
          else skipped++;
        }
      }
      this.skippedCounts.set(applicationId, skipped);
      if (skipped > 0) {
        process.emitWarning(`${skipped} person(s) of application ${applicationId} have templates this engine cannot read (another model version): left out of identification until re-enrolled`, { code: 'BIOSTATION_GALLERY_SKIPPED' });
      }
      return g;
    })();
    // The replaced gallery may still serve a search in flight: release its workers a little later.
    if (entry) setTimeout(() => void entry.gallery.then((old) => old.close?.(), () => undefined), RETIRE_AFTER_MS).unref();
    const fresh: Entry<G> = { gallery, revision };
    gallery.catch(() => {
      if (this.entries.get(applicationId) === fresh) this.entries.delete(applicationId);
    });
    this.entries.set(applicationId, fresh);
    return gallery;
  }

  /** The templates the gallery accepts one by one; each refused one is reported. */
  private readableTemplates(g: G, applicationId: string, extId: string, templates: Uint8Array[]): Uint8Array[] {
    const readable: Uint8Array[] = [];
    for (const t of templates) {
      try {
        g.upsert(extId, [t]);
        readable.push(t);
      } catch (e) {
        if (!isRefusedTemplate(e)) throw e;
        this.unreadable.report({ applicationId, modality: this.modality, extId, stage: 'engine', reason: (e as Error).message });
      }
    }
    g.remove(extId);
    return readable;
  }

  /** Persons left out of the application's last loaded gallery (templates of another model), 0 if none or not loaded. */
  skipped(applicationId: string): number {
    return this.skippedCounts.get(applicationId) ?? 0;
  }

  /** Closes every gallery (station shutdown). */
  async close(): Promise<void> {
    const galleries = [...this.entries.values()].map((e) => e.gallery);
    this.entries.clear();
    await Promise.all(galleries.map((g) => g.then((x) => x.close?.(), () => undefined)));
  }

  /** Applies a committed write (one revision) to the gallery, if it is loaded or loading. */
  async applyUpsert(applicationId: string, extId: string, templates: Uint8Array[]): Promise<void> {
    const entry = this.entries.get(applicationId);
    if (!entry) return;
    entry.revision++;
    (await entry.gallery).upsert(extId, templates);
  }

  async applyRemove(applicationId: string, extId: string): Promise<void> {
    const entry = this.entries.get(applicationId);
    if (!entry) return;
    entry.revision++;
    (await entry.gallery).remove(extId);
  }
}
