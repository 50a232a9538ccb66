import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { SignJWT, jwtVerify, generateKeyPair, exportJWK, importJWK, type JWK, type CryptoKey } from 'jose';

/** Signing algorithm of access tokens: Ed25519 (RFC 8037). Nothing else is accepted. */
const ALG = 'EdDSA';
const ISSUER = 'biostation';

export interface TokenClaims {
  /** Application id (JWT `sub`). */
  applicationId: string;
  /** Token id (JWT `jti`). */
  tokenId: string;
  issuedAt: number;
  expiresAt: number;
  /** The application's token generation when the token was issued (claim `gen`; 0 when absent). */
  generation: number;
}

/**
 * Issues and verifies access tokens (JWT, RFC 7519) naming an application. Signed with the
 * station's own Ed25519 key, generated at first start and stored with 0600 permissions, so a
 * token from another station, a tampered token or one with `alg: none` never verifies.
 */
export class TokenService {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly stationId: string,
    private readonly ttlSeconds: number,
  ) {}

  /** Loads the station key from `keyFile`, creating it (mode 0600) when absent. */
  static async open(keyFile: string, ttlSeconds: number): Promise<TokenService> {
    let jwk: JWK & { kid: string };
    if (existsSync(keyFile)) {
      jwk = JSON.parse(readFileSync(keyFile, 'utf8'));
    } else {
      const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      jwk = { ...(await exportJWK(privateKey)), kid: randomUUID() };
      const tmp = `${keyFile}.tmp`;
      writeFileSync(tmp, JSON.stringify(jwk), { mode: 0o600 });
      renameSync(tmp, keyFile);
    }
    const privateKey = (await importJWK(jwk, ALG)) as CryptoKey;
    const { d: _d, ...publicJwk } = jwk;
    const publicKey = (await importJWK(publicJwk, ALG)) as CryptoKey;
    return new TokenService(privateKey, publicKey, jwk.kid, ttlSeconds);
  }

  get lifetimeSeconds(): number {
    return this.ttlSeconds;
  }

  /**
   * Signs a token for the application, stamped with its current token generation: raising the
   * generation (secret rotation, disabling) revokes every token issued before.
   */
  async issue(applicationId: string, generation = 0): Promise<{ token: string; claims: TokenClaims }> {
    const now = Math.floor(Date.now() / 1000);
    const tokenId = randomUUID();
    const token = await new SignJWT({ gen: generation })
      .setProtectedHeader({ alg: ALG, kid: this.stationId, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(this.stationId)
      .setSubject(applicationId)
      .setJti(tokenId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(this.privateKey);
    return { token, claims: { applicationId, tokenId, issuedAt: now, expiresAt: now + this.ttlSeconds, generation } };
  }

  /** The claims of a valid token, or undefined for any invalid, expired or foreign token. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: this.stationId,
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      });
      return {
        applicationId: payload.sub!,
        tokenId: payload.jti!,
        issuedAt: payload.iat!,
        expiresAt: payload.exp!,
        generation: typeof payload.gen === 'number' && Number.isInteger(payload.gen) ? payload.gen : 0,
      };
    } catch {
      return undefined;
    }
  }
}
