import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

/**
 * File modes of the SQLite data directory (issue #18, finding 5): folders 0700, database files
 * 0600. A database file is created empty with mode 0600 before SQLite opens it (an empty file is a
 * valid empty database), and SQLite creates its -wal and -shm files with the mode of the database
 * file; files made by older versions are brought to 0600 when opened.
 */
export function secureDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

export function secureDatabaseFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

/** Paths of the SQLite store (the same as store/sqlite uses). */
export const sqliteFiles = (dataDir: string) => ({
  registry: path.join(dataDir, 'station.db'),
  applications: path.join(dataDir, 'applications'),
  application: (applicationId: string) => path.join(dataDir, 'applications', `${applicationId}.db`),
});
