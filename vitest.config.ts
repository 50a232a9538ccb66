import { defineConfig } from 'vitest/config';

/**
 * Tests that measure latency on this machine run alone, after the others (vitest.alone.config.ts):
 * beside another test file (Chromium, OCR, engines) on 2 cores they measure that file's load, not the
 * station's (the /health test's main thread waited 1 s of 5.7 s for a CPU at load 8.6).
 */
export const ALONE = ['test/api/health-under-load.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...ALONE],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
