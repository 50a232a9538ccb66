/**
 * Fingerprint engine entry point: `createFingerEngine()` returns the engine (finger-engine.ts), which
 * implements the contract of engine.ts. `similarity` and `similarityOfInterchange` accept any ISO
 * 19794-2:2005/2011 or ANSI 378-2004 record.
 */
import type { FingerEngine } from './engine.js';
import { FingerExtractorPool, PooledFingerEngine } from './extract-pool.js';
import { MinutiaeFingerEngine, type MinutiaeFingerEngineOptions } from './finger-engine.js';

export { extractFeatures } from './extractor/feature-extractor.js';
export { prepareRecord } from './fingerprint-template.js';
export { ProbeMatcher } from './matcher/matcher.js';
export { parseTemplate, writeTemplate, detectFormat } from './templates/formats.js';
export type { TemplateFormat } from './templates/formats.js';
export { DEFAULT_THRESHOLD, THRESHOLDS_BY_FMR } from './parameters.js';
export { MinutiaeFingerEngine, type MinutiaeFingerEngineOptions } from './finger-engine.js';
export { FingerExtractorPool, PooledFingerEngine } from './extract-pool.js';

/** The fingerprint engine (stateless; each call returns a new one). */
export async function createFingerEngine(options: MinutiaeFingerEngineOptions = {}): Promise<FingerEngine> {
  return new MinutiaeFingerEngine(options);
}

/**
 * The fingerprint engine with extraction (decode + minutiae) on `workers` worker threads
 * (extract-pool.ts), so that large images do not hold the event loop; same templates as createFingerEngine.
 * @throws FingerError ENGINE_UNAVAILABLE when the workers cannot start.
 */
export async function createPooledFingerEngine(workers: number, options: MinutiaeFingerEngineOptions = {}): Promise<PooledFingerEngine> {
  const pool = await FingerExtractorPool.start(workers, options);
  return new PooledFingerEngine(new MinutiaeFingerEngine(options), pool);
}
