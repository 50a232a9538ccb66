/** What a 1:N index must offer to be kept in step with the store. */
export interface MutableGallery {
  upsert(extId: string, templates: Uint8Array[]): void;
  remove(extId: string): void;
}

/**
 * One lazily built gallery per application. The first search of an application loads it from the
 * store; every later write is applied to it after the store has committed. A write that lands while
 * the gallery loads is applied once loading ends (upsert and remove are idempotent, so a write the
 * load already saw is harmless).
 */
export class GalleryRegistry<G extends MutableGallery> {
  private readonly galleries = new Map<string, Promise<G>>();

  constructor(
    private readonly build: () => Promise<G>,
    private readonly load: (applicationId: string) => Promise<Array<{ extId: string; templates: Uint8Array[] }>>,
  ) {}

  /** The application's gallery, loading it on first use. A failed load is retried next time. */
  get(applicationId: string): Promise<G> {
    let gallery = this.galleries.get(applicationId);
    if (!gallery) {
      gallery = (async () => {
        const g = await this.build();
        for (const person of await this.load(applicationId)) g.upsert(person.extId, person.templates);
        return g;
      })();
      gallery.catch(() => this.galleries.delete(applicationId));
      this.galleries.set(applicationId, gallery);
    }
    return gallery;
  }

  /** Applies a committed write to the gallery, if it is loaded or loading. */
  async applyUpsert(applicationId: string, extId: string, templates: Uint8Array[]): Promise<void> {
    const gallery = this.galleries.get(applicationId);
    if (gallery) (await gallery).upsert(extId, templates);
  }

  async applyRemove(applicationId: string, extId: string): Promise<void> {
    const gallery = this.galleries.get(applicationId);
    if (gallery) (await gallery).remove(extId);
  }
}
