import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TenantStore, TenantStoreProvider } from '../types.js';
import { UnreadableTemplates } from '../../runtime/unreadable-templates.js';
import { openDatabase, type SqliteDatabase } from './database.js';
import { SqlitePersonRepository, TENANT_MIGRATIONS } from './person-repository.js';
import { SqliteSyncLogRepository } from './sync-log-repository.js';
import { SqliteDocumentRepository } from './document-repository.js';

const APPLICATION_ID = /^[0-9a-f-]{36}$/;

/**
 * One SQLite file per application: `<dataDir>/applications/<applicationId>.db`. Databases are
 * opened on first use and kept open; `close()` closes them all (graceful shutdown).
 */
export class SqliteTenantStoreProvider implements TenantStoreProvider {
  private readonly open = new Map<string, { db: SqliteDatabase; store: TenantStore }>();
  private readonly dir: string;
  readonly unreadable = new UnreadableTemplates();

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'applications');
    mkdirSync(this.dir, { recursive: true });
  }

  async forApplication(applicationId: string): Promise<TenantStore> {
    const cached = this.open.get(applicationId);
    if (cached) return cached.store;
    if (!APPLICATION_ID.test(applicationId)) throw new Error(`invalid application id ${applicationId}`);
    const db = openDatabase(path.join(this.dir, `${applicationId}.db`), TENANT_MIGRATIONS);
    const store: TenantStore = {
      faces: new SqlitePersonRepository(db, 'face'),
      fingers: new SqlitePersonRepository(db, 'finger'),
      syncLog: new SqliteSyncLogRepository(db),
      documents: new SqliteDocumentRepository(db),
    };
    this.open.set(applicationId, { db, store });
    return store;
  }

  async close(): Promise<void> {
    for (const { db } of this.open.values()) db.close();
    this.open.clear();
  }
}
