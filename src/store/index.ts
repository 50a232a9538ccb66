import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { ApplicationRepository, TenantStoreProvider } from './types.js';
import { SqliteApplicationRepository } from './sqlite/application-repository.js';
import { SqliteTenantStoreProvider } from './sqlite/tenant-store-provider.js';
import { PgApplicationRepository } from './postgres/application-repository.js';
import { PgTenantStoreProvider } from './postgres/tenant-store-provider.js';
import { REGISTRY_MIGRATIONS, REGISTRY_SCHEMA, migrateSchema } from './postgres/schema.js';
import { EncryptingTenantStoreProvider } from './encryption/encrypting-store.js';
import { secureDatabaseFile, secureDirectory, sqliteFiles } from './encryption/file-modes.js';
import { Keyring, PgWrappedKeyStore, SqliteWrappedKeyStore } from './encryption/keyring.js';
import { loadMasterKeys, type MasterKeySource } from './encryption/master-key.js';
import { PgAuditStore, SqliteAuditStore, type AuditStore } from '../audit/audit-store.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface StoreSettings {
  kind: StoreKind;
  /** SQLite: the data directory (registry `station.db`, `applications/<id>.db`). */
  dataDir: string;
  /** PostgreSQL: connection string, e.g. postgres://user:pass@host:5432/biostation. */
  databaseUrl?: string;
  /**
   * Encrypt templates at rest (src/store/encryption): the station master key's source. Without it
   * the tenant stores are the plain repositories (store tests).
   */
  encryption?: MasterKeySource;
}

/** The station's storage: the registry of applications and the per-application stores. */
export interface Store {
  applications: ApplicationRepository;
  tenants: TenantStoreProvider;
  /** The data keys of the applications, when the store encrypts (settings.encryption). */
  keyring?: Keyring;
  /** The append-only audit trail of biometric operations, beside the registry (src/audit). */
  audit: AuditStore;
  close(): Promise<void>;
}

/**
 * Opens the configured store, creating and migrating what is missing. SQLite is the embedded
 * default (one file per application); PostgreSQL serves several stateless API nodes (one schema
 * per application). @throws Error when PostgreSQL is chosen without a URL or cannot be reached.
 */
export async function openStore(settings: StoreSettings): Promise<Store> {
  if (settings.kind === 'sqlite') {
    mkdirSync(settings.dataDir, { recursive: true, mode: 0o700 });
    const files = sqliteFiles(settings.dataDir);
    if (settings.encryption) {
      secureDirectory(settings.dataDir);
      secureDirectory(files.applications);
      secureDatabaseFile(files.registry);
    }
    const applications = new SqliteApplicationRepository(path.join(settings.dataDir, 'station.db'));
    const raw = new SqliteTenantStoreProvider(settings.dataDir);
    const keyring = settings.encryption && new Keyring(new SqliteWrappedKeyStore(files.registry), () => loadMasterKeys(settings.encryption!));
    const tenants = keyring ? new EncryptingTenantStoreProvider(raw, keyring, (id) => secureDatabaseFile(files.application(id))) : raw;
    const audit = new SqliteAuditStore(files.registry);
    return {
      applications,
      tenants,
      keyring,
      audit,
      async close() {
        await tenants.close();
        await audit.close();
        applications.close();
      },
    };
  }
  if (!settings.databaseUrl) throw new Error('the postgres store needs a database URL (BIOSTATION_DATABASE_URL)');
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 10 });
  try {
    const client = await pool.connect();
    try {
      await migrateSchema(client, REGISTRY_SCHEMA, REGISTRY_MIGRATIONS);
    } finally {
      client.release();
    }
  } catch (e) {
    await pool.end();
    throw e;
  }
  const raw = new PgTenantStoreProvider(pool);
  const keyring = settings.encryption && new Keyring(new PgWrappedKeyStore(pool, REGISTRY_SCHEMA), () => loadMasterKeys(settings.encryption!));
  const tenants = keyring ? new EncryptingTenantStoreProvider(raw, keyring) : raw;
  return {
    applications: new PgApplicationRepository(pool),
    tenants,
    keyring,
    audit: new PgAuditStore(pool, REGISTRY_SCHEMA),
    async close() {
      await tenants.close();
      await pool.end();
    },
  };
}
