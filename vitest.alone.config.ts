import { defineConfig } from 'vitest/config';
import { ALONE } from './vitest.config';

/** The latency tests (see vitest.config.ts), one file at a time with nothing else running: `npm test` runs them last. */
export default defineConfig({
  test: {
    include: ALONE,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
