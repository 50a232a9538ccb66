import type { TenantStore } from '../store/types.js';

/** De-duplication policy at enrollment (rules in src/services/dedup.ts). */
export type DedupPolicy = 'off' | 'warn' | 'block';

/**
 * The application a request acts for, resolved once from its token by the HTTP layer. Services
 * receive it and reach data only through `store`, which holds that application's data alone.
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
