// Entry of every pooled worker thread (src/runtime/worker-pool.ts) when the sources run as TypeScript
// (tsx, vitest): registers tsx in this thread, then loads the worker module named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
