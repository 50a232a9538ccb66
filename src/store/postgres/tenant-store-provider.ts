import type { Pool } from 'pg';
import type { TenantStore, TenantStoreProvider } from '../types.js';
import { UnreadableTemplates } from '../../runtime/unreadable-templates.js';
import { PgPersonRepository } from './person-repository.js';
import { PgSyncLogRepository } from './sync-log-repository.js';
import { PgDocumentRepository } from './document-repository.js';
import type { RevisionListener } from './revision-listener.js';
import { TENANT_MIGRATIONS, migrateSchema, tenantSchema } from './schema.js';

const APPLICATION_ID = /^[0-9a-f-]{36}$/;

/** One PostgreSQL schema per application, migrated on first use by this node. */
export class PgTenantStoreProvider implements TenantStoreProvider {
  private readonly stores = new Map<string, Promise<TenantStore>>();
  readonly unreadable = new UnreadableTemplates();

  constructor(
    private readonly pool: Pool,
    private readonly listener?: RevisionListener,
  ) {}

  forApplication(applicationId: string): Promise<TenantStore> {
    let store = this.stores.get(applicationId);
    if (!store) {
      if (!APPLICATION_ID.test(applicationId)) return Promise.reject(new Error(`invalid application id ${applicationId}`));
      store = (async () => {
        const schema = tenantSchema(applicationId);
        const client = await this.pool.connect();
        try {
          await migrateSchema(client, schema, TENANT_MIGRATIONS);
        } finally {
          client.release();
        }
        return {
          faces: new PgPersonRepository(this.pool, schema, 'face', this.listener),
          fingers: new PgPersonRepository(this.pool, schema, 'finger', this.listener),
          syncLog: new PgSyncLogRepository(this.pool, schema),
          documents: new PgDocumentRepository(this.pool, schema),
        };
      })();
      store.catch(() => this.stores.delete(applicationId));
      this.stores.set(applicationId, store);
    }
    return store;
  }

  async close(): Promise<void> {
    this.stores.clear();
  }
}
