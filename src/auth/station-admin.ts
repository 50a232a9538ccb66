import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the same cost as application secrets (OWASP 2023 minimum: m=19 MiB, t=2, p=1). */
const ARGON2_OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Lifetime of an admin session token (ms). */
export const ADMIN_SESSION_MS = 15 * 60 * 1000;

/** Stored in `<dataDir>/station-admin.json` (mode 0600): only the argon2id hash of the secret. */
interface StoredAdmin {
  secretHash: string;
  createdAt: string;
  rotatedAt: string | null;
}

const newSecret = (): string => `sa_${randomBytes(24).toString('base64url')}`;

/**
 * The station-admin credential: one secret per station, distinct from every application's
 * credential, protecting the station-admin API (applications listed, created, disabled, rotated).
 * Created on the first start of a data directory, shown once (`createdSecret`), stored only as an
 * argon2id hash. `openSession` exchanges the secret for a random session token kept in memory for
 * ADMIN_SESSION_MS; an application's JWT is never a session token.
 */
export class StationAdmin {
  private readonly sessions = new Map<string, number>();

  private constructor(
    private readonly file: string,
    private stored: StoredAdmin,
    private readonly now: () => number,
  ) {}

  /**
   * Loads the credential of `file`, creating it when absent. `createdSecret` is set only on that
   * creation: the caller shows it once (banner, kiosk first start), it is not kept anywhere.
   */
  static async open(file: string, now: () => number = Date.now): Promise<{ admin: StationAdmin; createdSecret?: string }> {
    if (existsSync(file)) {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredAdmin;
      if (typeof stored.secretHash !== 'string' || !stored.secretHash.startsWith('$argon2')) throw new Error(`${file} holds no station-admin hash`);
      return { admin: new StationAdmin(file, stored, now) };
    }
    const secret = newSecret();
    const stored: StoredAdmin = { secretHash: await hash(secret, ARGON2_OPTIONS), createdAt: new Date(now()).toISOString(), rotatedAt: null };
    const admin = new StationAdmin(file, stored, now);
    admin.save();
    return { admin, createdSecret: secret };
  }

  /**
   * Whether `secret` is the station-admin secret (argon2id verify). The file is read again first,
   * so a secret reset from the command line (`biostation admin reset-secret`) applies at once.
   */
  async verify(secret: string): Promise<boolean> {
    if (existsSync(this.file)) this.stored = JSON.parse(readFileSync(this.file, 'utf8')) as StoredAdmin;
    return verify(this.stored.secretHash, secret).catch(() => false);
  }

  /** A session token for the secret, or undefined when it is wrong. */
  async openSession(secret: string): Promise<{ token: string; expiresAt: string } | undefined> {
    if (!(await this.verify(secret))) return undefined;
    this.prune();
    const token = `sas_${randomBytes(32).toString('base64url')}`;
    const expires = this.now() + ADMIN_SESSION_MS;
    this.sessions.set(token, expires);
    return { token, expiresAt: new Date(expires).toISOString() };
  }

  /** Whether `token` is a live session token. */
  hasSession(token: string | undefined): boolean {
    if (!token) return false;
    const expires = this.sessions.get(token);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.sessions.delete(token);
      return false;
    }
    return true;
  }

  /** Ends one session (logout). */
  closeSession(token: string): void {
    this.sessions.delete(token);
  }

  /** Issues a new secret: the old one and every open session stop working at once. Returns the new secret (shown once). */
  async rotate(): Promise<string> {
    const secret = newSecret();
    this.stored = { ...this.stored, secretHash: await hash(secret, ARGON2_OPTIONS), rotatedAt: new Date(this.now()).toISOString() };
    this.save();
    this.sessions.clear();
    return secret;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, expires] of this.sessions) if (expires <= now) this.sessions.delete(token);
  }

  private save(): void {
    writeFileSync(this.file, `${JSON.stringify(this.stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(this.file, 0o600);
  }
}
