import { BiostationError } from './errors.js';
import { GalleryRegistry, type MutableGallery } from './gallery-registry.js';
import type { Tenant } from './tenant.js';
import type { PersonRecord, PersonRepository, PersonSummary, TenantStore } from '../store/types.js';

/**
 * The store-only operations every modality shares (count, list, templates count, delete), and
 * the per-application 1:N galleries kept in step with the store. Face and fingerprint services
 * extend it with their engine operations.
 */
export abstract class PersonDirectory<G extends MutableGallery> {
  protected readonly galleries: GalleryRegistry<G>;

  protected constructor(
    private readonly pick: (store: TenantStore) => PersonRepository,
    buildGallery: () => Promise<G>,
    openStore: (applicationId: string) => Promise<TenantStore>,
  ) {
    const repositoryOf = async (applicationId: string) => this.pick(await openStore(applicationId));
    this.galleries = new GalleryRegistry(buildGallery, {
      allTemplates: async (applicationId) => (await repositoryOf(applicationId)).allTemplates(),
      revision: async (applicationId) => (await repositoryOf(applicationId)).revision(),
    });
  }

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
}
