// Worker entry when the sources run as TypeScript (tsx, vitest): registers tsx, then loads the worker.
import { register } from 'tsx/esm/api';

register();
await import('./decode-worker.ts');
