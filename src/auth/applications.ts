import { randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { ApplicationRecord, ApplicationRepository } from '../store/types.js';

/** argon2id (algorithm 2 of @node-rs/argon2's const enum) with OWASP 2023 minimum cost: m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A dummy hash verified when the key is unknown, so a wrong key costs as much time as a wrong secret. */
let dummyHash: Promise<string> | undefined;

export interface IssuedCredential {
  name: string;
  key: string;
  /** Shown once; only its hash is stored. */
  secret: string;
}

export class ApplicationError extends Error {
  constructor(
    readonly code: 'APPLICATION_NOT_FOUND' | 'INVALID_NAME' | 'INVALID_THRESHOLD' | 'INVALID_DEDUP_POLICY',
    message: string,
  ) {
    super(message);
    this.name = 'ApplicationError';
  }
}

const newKey = (): string => `bs_${randomBytes(12).toString('hex')}`;
const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Applications and their credentials. An application owns one database; its `key` and `secret`
 * are exchanged for tokens. Secrets are stored only as argon2id hashes.
 */
export class ApplicationService {
  constructor(
    private readonly repository: ApplicationRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates an application. @throws ApplicationError INVALID_NAME for an empty or over-long name. */
  async create(name: string): Promise<IssuedCredential> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 100) throw new ApplicationError('INVALID_NAME', 'name must have 1 to 100 characters');
    const secret = newSecret();
    const record: ApplicationRecord = {
      id: randomUUID(),
      name: trimmed,
      key: newKey(),
      secretHash: await hash(secret, ARGON2_OPTIONS),
      createdAt: this.now().toISOString(),
      disabledAt: null,
      faceThreshold: null,
      fingerThreshold: null,
      tokenGeneration: 0,
    };
    await this.repository.insert(record);
    return { name: record.name, key: record.key, secret };
  }

  list(): Promise<ApplicationRecord[]> {
    return this.repository.list();
  }

  /** Disables the application; every token it holds stops working at once. @throws ApplicationError APPLICATION_NOT_FOUND */
  async disable(key: string): Promise<void> {
    if (!(await this.repository.disable(key, this.now().toISOString()))) throw notFound(key);
  }

  /** Issues a new secret; the old one and every token issued under it stop working at once. @throws ApplicationError APPLICATION_NOT_FOUND */
  async rotateSecret(key: string): Promise<IssuedCredential> {
    const app = await this.repository.findByKey(key);
    if (!app) throw notFound(key);
    const secret = newSecret();
    await this.repository.updateSecretHash(key, await hash(secret, ARGON2_OPTIONS));
    return { name: app.name, key, secret };
  }

  /**
   * Sets the application's decision thresholds (similarity units of each engine; null restores the
   * engine's calibrated default; livenessThreshold is a probability, 0..1). @throws ApplicationError APPLICATION_NOT_FOUND, INVALID_THRESHOLD
   */
  async setThresholds(key: string, thresholds: { faceThreshold?: number | null; fingerThreshold?: number | null; livenessThreshold?: number | null }): Promise<void> {
    for (const value of Object.values(thresholds)) {
      if (value !== null && value !== undefined && !Number.isFinite(value)) throw new ApplicationError('INVALID_THRESHOLD', 'thresholds must be numbers');
    }
    const l = thresholds.livenessThreshold;
    if (l !== null && l !== undefined && (l < 0 || l > 1)) throw new ApplicationError('INVALID_THRESHOLD', 'the liveness threshold is a probability, 0 to 1');
    if (!(await this.repository.updateThresholds(key, thresholds))) throw notFound(key);
  }

  /**
   * Sets the application's de-duplication at enrollment: off | warn | block (src/services/dedup.ts).
   * @throws ApplicationError APPLICATION_NOT_FOUND, INVALID_DEDUP_POLICY
   */
  async setDedupPolicy(key: string, policy: string): Promise<void> {
    if (policy !== 'off' && policy !== 'warn' && policy !== 'block') throw new ApplicationError('INVALID_DEDUP_POLICY', 'policy must be off, warn or block');
    if (!(await this.repository.updateDedupPolicy(key, policy))) throw notFound(key);
  }

  /**
   * The enabled application whose key and secret these are, or undefined. Takes the same time
   * whether the key exists or not.
   */
  async authenticate(key: string, secret: string): Promise<ApplicationRecord | undefined> {
    const app = await this.repository.findByKey(key);
    if (!app) {
      dummyHash ??= hash(newSecret(), ARGON2_OPTIONS);
      await verify(await dummyHash, secret).catch(() => false);
      return undefined;
    }
    const ok = await verify(app.secretHash, secret).catch(() => false);
    return ok && app.disabledAt === null ? app : undefined;
  }

  /** The application if it exists and is enabled. */
  async findActive(id: string): Promise<ApplicationRecord | undefined> {
    const app = await this.repository.findById(id);
    return app && app.disabledAt === null ? app : undefined;
  }
}

const notFound = (key: string) => new ApplicationError('APPLICATION_NOT_FOUND', `no application with key ${key}`);
