import { BiostationError } from '../runtime/errors.js';

/** De-duplication policy at enrollment (the rules below). */
export type DedupPolicy = 'off' | 'warn' | 'block';

/**
 * De-duplication at enrollment, per application: before a face or fingerprint enroll the sample is
 * searched 1:N over the application's persons of that modality.
 *   off   no search;
 *   warn  the enroll goes through and the response lists the persons it matched (`duplicates`);
 *   block the enroll is refused with DUPLICATE_FOUND (409) and the same list.
 * A match is a person (other than the ext_id being written) whose best template scores at or
 * above the application's 1:N threshold. Default `warn` (registry column `dedup_policy`).
 */
export const DEDUP_POLICIES: readonly DedupPolicy[] = ['off', 'warn', 'block'];
export const DEFAULT_DEDUP_POLICY: DedupPolicy = 'warn';

export function isDedupPolicy(value: unknown): value is DedupPolicy {
  return typeof value === 'string' && (DEDUP_POLICIES as readonly string[]).includes(value);
}

/** A person already enrolled whom the new sample matches. `score` is in the modality's similarity units. */
export interface DuplicateCandidate {
  extId: string;
  modality: 'face' | 'finger';
  score: number;
}

/** Most candidates reported per enroll. */
export const MAX_DUPLICATES = 5;

/** DUPLICATE_FOUND with the persons the sample matched (policy `block`). */
export class DuplicateFoundError extends BiostationError {
  constructor(readonly duplicates: DuplicateCandidate[]) {
    super('DUPLICATE_FOUND', `The sample matches ${duplicates.map((d) => d.extId).join(', ')}, already enrolled`);
  }
}
