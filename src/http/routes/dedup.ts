import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { ERROR_CATALOGUE } from '../../runtime/errors.js';
import { DuplicateFoundError, type DuplicateCandidate } from '../../services/dedup.js';
import { Result } from '../schemas.js';

/**
 * The HTTP side of de-duplication at enrollment (API extension, src/services/dedup.ts): under the
 * application's policy `warn` a face or fingerprint enroll that matched other persons answers the
 * spec's success body plus `duplicates`; under `block` it answers 409 DUPLICATE_FOUND (result code
 * 1049) with the same list. `duplicates` is absent when nothing matched or the policy is `off`, so
 * a client of the spec sees the spec's body.
 */
export const Duplicates = Type.Optional(
  Type.Array(
    Type.Object({
      ExternalID: Type.String(),
      modality: Type.Union([Type.Literal('face'), Type.Literal('finger')]),
      score: Type.Number({ description: "the candidate's best similarity (the modality's units), at or above the 1:N threshold" }),
    }),
    { description: 'Persons already enrolled whom the sample matched (policy warn; absent when none)' },
  ),
);

export const DuplicateRefusal = Type.Object({ result: Result, duplicates: Duplicates });

/** `{ duplicates }` when the list is non-empty, else nothing. */
export function duplicatesField(list: DuplicateCandidate[] | undefined): { duplicates?: Array<{ ExternalID: string; modality: 'face' | 'finger'; score: number }> } {
  return list && list.length > 0 ? { duplicates: list.map((d) => ({ ExternalID: d.extId, modality: d.modality, score: d.score })) } : {};
}

/** Runs an enroll; a DUPLICATE_FOUND refusal is answered here with its candidates (409). */
export async function refusingDuplicates<T>(reply: FastifyReply, enroll: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await enroll();
  } catch (e) {
    if (!(e instanceof DuplicateFoundError)) throw e;
    const entry = ERROR_CATALOGUE.DUPLICATE_FOUND;
    return reply.status(entry.status).send({ result: { code: entry.resultCode, message: 'DUPLICATE_FOUND', detail: e.message }, ...duplicatesField(e.duplicates) });
  }
}

/**
 * Identify's candidates (API extension): present only when several persons score at or above the
 * threshold, all of them best first (the first is ExternalID), so a clerk sees a near tie; absent
 * otherwise, which keeps the spec's identify body.
 */
export const Candidates = Type.Optional(
  Type.Array(Type.Object({ ExternalID: Type.String(), score: Type.Number() }), {
    description: 'Every person at or above the threshold among the best 5, best first; only when there are several',
  }),
);

export function candidatesField(list: Array<{ extId: string; score: number }>): { candidates?: Array<{ ExternalID: string; score: number }> } {
  return list.length > 1 ? { candidates: list.map((c) => ({ ExternalID: c.extId, score: c.score })) } : {};
}
