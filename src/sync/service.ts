import type { FaceEngine } from '../face/engine.js';
import type { FingerEngine } from '../finger/engine.js';
import { BiostationError } from '../runtime/errors.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { Tenant } from '../runtime/tenant.js';
import type { PersonRepository, SyncRecord } from '../store/types.js';
import { PeerClient, type Peer, type PeerPerson } from './peer-client.js';

/**
 * Station-to-station sync: an application pulls the persons of an application on a peer station
 * (field offices that worked offline for days). A merge, newest wins per person: a person unknown
 * here is created; one the peer changed later (its UpdatedAt is newer) gets the peer's templates;
 * the rest are skipped. Timestamps are kept as the peer wrote them, so pulling back and forth
 * converges instead of ping-ponging. Templates this station cannot compare (another face model,
 * an unreadable fingerprint record) are never imported. Deletions do not travel.
 * Each pull, successful or not, is written to the application's sync log.
 */
export class SyncService {
  constructor(
    private readonly faceEngine: EngineSlot<FaceEngine>,
    private readonly fingerEngine: EngineSlot<FingerEngine>,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** @throws PEER_UNREACHABLE, PEER_UNAUTHORIZED, PEER_INVALID_RESPONSE, INVALID_REQUEST (bad URL) */
  async pull(tenant: Tenant, peer: Peer): Promise<SyncRecord> {
    const client = new PeerClient(peer, this.fetchImpl);
    const startedAt = new Date().toISOString();
    const counts = { pulled: 0, created: 0, updated: 0, skipped: 0 };
    let error: BiostationError | undefined;
    try {
      const face = await this.faceEngine.get().catch(() => undefined);
      if (face) await this.merge(tenant.store.faces, await client.faces(), (t) => face.assertCompatible(t), counts);
      const finger = await this.fingerEngine.get().catch(() => undefined);
      const fingers = finger ? await client.fingers() : undefined;
      if (finger && fingers) await this.merge(tenant.store.fingers, fingers, (t) => void finger.similarity(t, t), counts);
    } catch (e) {
      if (!(e instanceof BiostationError)) throw e;
      error = e;
    }
    const record: SyncRecord = { peerUrl: peer.url, startedAt, finishedAt: new Date().toISOString(), ...counts, error: error?.message ?? null };
    await tenant.store.syncLog.record(record);
    if (error) throw error;
    return record;
  }

  /** The application's latest pulls, newest first. */
  history(tenant: Tenant, limit = 10): Promise<SyncRecord[]> {
    return tenant.store.syncLog.recent(limit);
  }

  private async merge(
    repository: PersonRepository,
    persons: PeerPerson[],
    assertUsable: (template: Uint8Array) => void,
    counts: { pulled: number; created: number; updated: number; skipped: number },
  ): Promise<void> {
    for (const person of persons) {
      counts.pulled++;
      if (person.templates.length === 0 || !person.templates.every((t) => usable(assertUsable, t.data))) {
        counts.skipped++;
        continue;
      }
      const local = await repository.find(person.extId);
      if (!local) {
        await repository.create(person.extId, person.templates, person.updatedAt);
        counts.created++;
      } else if (Date.parse(person.updatedAt) > Date.parse(local.updatedAt)) {
        await repository.replaceTemplates(person.extId, person.templates, person.updatedAt);
        counts.updated++;
      } else {
        counts.skipped++;
      }
    }
  }
}

function usable(assertUsable: (template: Uint8Array) => void, template: Uint8Array): boolean {
  try {
    assertUsable(template);
    return true;
  } catch {
    return false;
  }
}
