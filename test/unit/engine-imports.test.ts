/**
 * Engines are pure (ARCHITECTURE.md): no module under src/face, src/finger, src/ocr or src/liveness may
 * reach src/store, src/http or the model build code in models/, directly or through any module it
 * imports. The test walks the import graph (static imports, re-exports, dynamic `import('...')` with a
 * literal, and worker entry files named by `new URL('./x', import.meta.url)`) from every source file of
 * those folders and names the chain of the first forbidden import it finds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENGINES = ['src/face', 'src/finger', 'src/ocr', 'src/liveness'];
const FORBIDDEN = ['src/store/', 'src/http/', 'models/'];

function sourcesUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(abs, f))
    .filter((f) => statSync(f).isFile());
}

/** Repository-relative paths of the files `file` imports (packages are left out). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue; // a package
    const target = path.resolve(path.dirname(file), fileName);
    const found = firstFile([target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), `${target}.ts`, path.join(target, 'index.ts')]);
    if (found) out.push(found);
  }
  // Worker entries: `new URL('./x.js', import.meta.url)` names a module only when it is a file (a folder such
  // as models/build is data the engine reads, not code it imports).
  for (const m of text.matchAll(/new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)) {
    const target = path.resolve(path.dirname(file), m[1]);
    const found = firstFile([target, target.replace(/\.js$/, '.ts')]);
    if (found) out.push(found);
  }
  return out;
}

function firstFile(candidates: string[]): string | undefined {
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const rel = (f: string): string => path.relative(ROOT, f).split(path.sep).join('/');

/** The first chain from `start` to a forbidden module, or null. */
function forbiddenChain(start: string): string[] | null {
  const seen = new Set<string>([start]);
  const queue: string[][] = [[start]];
  while (queue.length) {
    const chain = queue.shift()!;
    for (const next of importsOf(chain[chain.length - 1])) {
      if (FORBIDDEN.some((p) => rel(next).startsWith(p))) return [...chain, next].map(rel);
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...chain, next]);
    }
  }
  return null;
}

describe('engine import boundaries', () => {
  it('finds the engines sources (the walk is not vacuous)', () => {
    expect(sourcesUnder('src/face').length).toBeGreaterThan(5);
    expect(sourcesUnder('src/finger').length).toBeGreaterThan(5);
    expect(sourcesUnder('src/ocr').length).toBeGreaterThan(5);
  });

  it('notices a forbidden import (the walk can fail)', () => {
    // src/services/face.ts imports the store types: a chain must be found from it.
    expect(forbiddenChain(path.join(ROOT, 'src/services/face.ts'))).not.toBeNull();
  });

  for (const dir of ENGINES) {
    it(`no module under ${dir} reaches ${FORBIDDEN.join(', ')}`, () => {
      const violations = sourcesUnder(dir)
        .map((f) => forbiddenChain(f))
        .filter((c): c is string[] => c !== null)
        .map((c) => c.join(' -> '));
      expect(violations).toEqual([]);
    });
  }
});
