import type { TenantStore } from '../store/types.js';
import type { DedupPolicy } from './dedup.js';

/**
 * The application a request acts for, resolved once from its token by the HTTP layer. Services
 * receive it and reach data only through `store`, which holds that application's data alone.
 * (Here, not in src/runtime: the runtime is the bottom layer and knows nothing of stores; see
 * ARCHITECTURE.md, "Direction of dependencies".)
 */
export interface Tenant {
  applicationId: string;
  applicationName: string;
  store: TenantStore;
  /**
   * The application's decision thresholds; undefined = the engine's calibrated default. `liveness`:
   * the passive liveness check's threshold on its fused probability (0..1).
   */
  thresholds: { face?: number; finger?: number; liveness?: number };
  /** De-duplication at enrollment (src/services/dedup.ts); undefined = DEFAULT_DEDUP_POLICY. */
  dedupPolicy?: DedupPolicy;
}
