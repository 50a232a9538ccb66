/** Moved to src/cli/readers.ts; this re-export goes once src/cli.ts imports from there. */
export * from './cli/readers.js';
