import { createHmac } from 'node:crypto';
import type { AuditEntry, AuditStore } from './audit-store.js';

/** How ext_ids enter the audit trail: an HMAC-SHA-256 pseudonym (default), in clear, or not at all. */
export type AuditExtIdMode = 'hash' | 'clear' | 'none';

/**
 * The audit trail writer: entries are queued and appended in one transaction every
 * `flushMs` (or at `maxBatch`), so recording an operation costs the request no disk wait.
 * `close()` flushes what is queued. A failed append is reported through `onError` and the entries
 * are kept for the next flush (at most 10 000 queued; beyond, the oldest are dropped and counted).
 */
export class AuditLog {
  private queue: AuditEntry[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  /** Entries dropped because the store kept failing (reported, never silent). */
  dropped = 0;

  constructor(
    readonly store: AuditStore,
    private readonly options: {
      extIds: AuditExtIdMode;
      /** The per-application key of the ext_id pseudonyms (the application's data key). */
      pseudonymKey: (applicationId: string) => Promise<Buffer>;
      onError?: (error: unknown) => void;
      flushMs?: number;
      maxBatch?: number;
    },
  ) {}

  /**
   * The ext_id as the trail records it. The pseudonym is HMAC-SHA-256(key, ext_id) under a key
   * derived from the application's data key: the same person has the same pseudonym within an
   * application (so an auditor can follow one person), and nobody without the key can test a CPF.
   */
  async extIdFor(applicationId: string | null, extId: string | null | undefined): Promise<string | null> {
    if (extId === null || extId === undefined || this.options.extIds === 'none') return null;
    if (this.options.extIds === 'clear') return extId;
    if (!applicationId) return null;
    const key = createHmac('sha256', await this.options.pseudonymKey(applicationId)).update('biostation:audit:ext_id:v1').digest();
    return `hmac:${createHmac('sha256', key).update(extId, 'utf8').digest('hex').slice(0, 32)}`;
  }

  record(entry: AuditEntry): void {
    this.queue.push(entry);
    if (this.queue.length > 10_000) {
      this.dropped += this.queue.length - 10_000;
      this.queue.splice(0, this.queue.length - 10_000);
    }
    if (this.queue.length >= (this.options.maxBatch ?? 200)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 100);
  }

  /** Appends everything queued so far. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = async () => {
      await this.flushing;
      const batch = this.queue;
      if (batch.length === 0) return;
      this.queue = [];
      try {
        await this.store.append(batch);
      } catch (e) {
        this.queue = [...batch, ...this.queue];
        this.options.onError?.(e);
      }
    };
    this.flushing = run();
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store.close();
  }
}
