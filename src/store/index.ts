import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { ApplicationRepository, PeerListStore, TenantStoreProvider } from './types.js';
import { SqliteApplicationRepository } from './sqlite/application-repository.js';
import { SqliteTenantStoreProvider } from './sqlite/tenant-store-provider.js';
import { SqlitePeerListStore } from './sqlite/peer-list.js';
import { PgPeerListStore } from './postgres/peer-list.js';
import { PgApplicationRepository } from './postgres/application-repository.js';
import { PgTenantStoreProvider } from './postgres/tenant-store-provider.js';
import { RevisionListener } from './postgres/revision-listener.js';
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
  /** The sync peers added from the Admin screen, beside the registry (shared by every node on PostgreSQL). */
  syncPeers: PeerListStore;
  /**
   * Runs `work` while holding a station-wide lock named `name`: a PostgreSQL advisory lock shared by
   * every API node (e.g. the demo application of a first start is created once, not once per node);
   * SQLite runs it as is (one station process per data directory).
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Holds `pg_advisory_lock(hashtext(name))` on one pooled connection while `work` runs. */
async function pgExclusive<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`biostation:${name}`]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`biostation:${name}`]);
    }
  } finally {
    client.release();
  }
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
    const syncPeers = new SqlitePeerListStore(files.registry);
    return {
      applications,
      tenants,
      keyring,
      audit,
      syncPeers,
      exclusive: (_name, work) => work(),
      async close() {
        await tenants.close();
        await audit.close();
        syncPeers.close();
        applications.close();
      },
    };
  }
  if (!settings.databaseUrl) throw new Error('the postgres store needs a database URL (BIOSTATION_DATABASE_URL)');
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 10 });
  // An idle connection the server ends (restart, failover, pg_terminate_backend) is dropped by the pool; unhandled, its error would end the process.
  pool.on('error', () => undefined);
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
  // Writes of other API nodes reach this node's galleries by LISTEN/NOTIFY (no query per search).
  const listener = new RevisionListener(settings.databaseUrl);
  await listener.start();
  const raw = new PgTenantStoreProvider(pool, listener);
  const keyring = settings.encryption && new Keyring(new PgWrappedKeyStore(pool, REGISTRY_SCHEMA), () => loadMasterKeys(settings.encryption!));
  const tenants = keyring ? new EncryptingTenantStoreProvider(raw, keyring) : raw;
  return {
    applications: new PgApplicationRepository(pool),
    tenants,
    keyring,
    audit: new PgAuditStore(pool, REGISTRY_SCHEMA),
    syncPeers: new PgPeerListStore(pool, REGISTRY_SCHEMA),
    async close() {
      await tenants.close();
      await listener.close();
      await pool.end();
    },
    exclusive: (name, work) => pgExclusive(pool, name, work),
  };
}
