import client from 'prom-client';
import type { Logger } from './logger.js';

/** Where a stored template was found unreadable: the store (it does not decrypt) or the engine (it refuses the bytes). */
export type UnreadableStage = 'decrypt' | 'engine';

export interface UnreadableTemplate {
  applicationId: string;
  /** 'document': a person's document record (src/store/documents.ts), sealed like templates. */
  modality: 'face' | 'finger' | 'document';
  extId: string;
  stage: UnreadableStage;
  /** Why, in words (no template bytes). */
  reason: string;
}

/**
 * Stored templates that cannot be read (a damaged encrypted row, a row the engine refuses), skipped
 * wherever they are met so that one bad row does not poison an application's gallery (issue #18).
 * Each one is logged at warn with its person and counted in `biostation_unreadable_templates_total`
 * (labels modality, stage).
 *
 * One per store (the tenant store provider's `unreadable`, made by openStore): the encryption layer
 * reports what does not decrypt, the 1:N galleries built over that store what the engine refuses, and
 * the HTTP server of the station registers the counter in its metrics and hands its logger over
 * (buildServer). Two stations in one process (tests) count apart. Without a logger a report is a
 * process warning (code BIOSTATION_UNREADABLE_TEMPLATE).
 */
export class UnreadableTemplates {
  readonly counter = new client.Counter({
    name: 'biostation_unreadable_templates_total',
    help: 'Stored templates skipped because they could not be decrypted or the engine refused them',
    labelNames: ['modality', 'stage'],
    registers: [],
  });
  private logger: Logger | undefined;

  useLogger(logger: Logger): void {
    this.logger = logger;
  }

  report(t: UnreadableTemplate): void {
    this.counter.inc({ modality: t.modality, stage: t.stage });
    const message = 'stored template unreadable: skipped (re-enroll the person to replace it)';
    if (this.logger) this.logger.warn({ applicationId: t.applicationId, modality: t.modality, extId: t.extId, stage: t.stage, reason: t.reason }, message);
    else process.emitWarning(`${message}: application ${t.applicationId}, ${t.modality} person ${t.extId} (${t.stage}: ${t.reason})`, { code: 'BIOSTATION_UNREADABLE_TEMPLATE' });
  }
}
