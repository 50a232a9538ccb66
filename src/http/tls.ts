import { X509Certificate, createHash, randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/** TLS material of the HTTP server and the SHA-256 fingerprint peers pin. */
export interface TlsMaterial {
  key: string;
  cert: string;
  /** SHA-256 of the certificate (DER), upper-case hex pairs joined by ':', as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint256: string;
  certFile: string;
}

export type TlsMode = 'off' | 'auto' | 'files';

export interface TlsSettings {
  tls: TlsMode;
  dataDir: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
}

/** Where `auto` keeps its certificate and key, inside the data directory. */
export const autoTlsPaths = (dataDir: string) => ({
  dir: path.join(dataDir, 'tls'),
  cert: path.join(dataDir, 'tls', 'station-cert.pem'),
  key: path.join(dataDir, 'tls', 'station-key.pem'),
});

/**
 * The server's TLS material for the configured mode: none for `off`; the operator's PEM files for
 * `files`; for `auto`, a self-signed certificate generated at first start (ECDSA P-256, valid 5
 * years, names localhost, this host's name and every address it has at generation time) kept in
 * `<dataDir>/tls/` (key mode 0600) and reused on later starts. Peers and browsers trust it by
 * pinning its fingerprint (logged at start; `openssl x509 -in station-cert.pem -noout -fingerprint -sha256`).
 * @throws Error when `files` lacks a path or a file cannot be read.
 */
export async function loadTls(settings: TlsSettings): Promise<TlsMaterial | undefined> {
  if (settings.tls === 'off') return undefined;
  let certFile: string;
  let keyFile: string;
  if (settings.tls === 'files') {
    if (!settings.tlsCertFile || !settings.tlsKeyFile) throw new Error('BIOSTATION_TLS=files needs BIOSTATION_TLS_CERT and BIOSTATION_TLS_KEY');
    certFile = settings.tlsCertFile;
    keyFile = settings.tlsKeyFile;
  } else {
    const paths = autoTlsPaths(settings.dataDir);
    certFile = paths.cert;
    keyFile = paths.key;
    if (!existsSync(certFile) || !existsSync(keyFile)) {
      mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
      const generated = await generateSelfSigned();
      writeAtomically(keyFile, generated.key, 0o600);
      writeAtomically(certFile, generated.cert, 0o644);
    }
  }
  const cert = readFileSync(certFile, 'utf8');
  const key = readFileSync(keyFile, 'utf8');
  return { cert, key, fingerprint256: new X509Certificate(cert).fingerprint256, certFile };
}

function writeAtomically(file: string, text: string, mode: number): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

/** Names and addresses the station answers on now: localhost, the host name, every interface address. */
function subjectAltNames(): x509.JsonGeneralName[] {
  const names: x509.JsonGeneralName[] = [{ type: 'dns', value: 'localhost' }];
  const host = os.hostname();
  if (host && host !== 'localhost' && /^[A-Za-z0-9.-]+$/.test(host)) names.push({ type: 'dns', value: host });
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) ips.add(a.address.replace(/%.*$/, ''));
  for (const ip of ips) names.push({ type: 'ip', value: ip });
  return names;
}

/** A self-signed ECDSA P-256 server certificate and its PKCS#8 key, both PEM. */
export async function generateSelfSigned(now = new Date()): Promise<{ cert: string; key: string }> {
  const crypto = webcrypto as unknown as Crypto;
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: `01${randomBytes(15).toString('hex')}`,
      name: `CN=Biostation ${os.hostname().replace(/[,+="<>#;\\]/g, '') || 'station'}`,
      notBefore: new Date(now.getTime() - 24 * 3600 * 1000),
      notAfter: new Date(now.getTime() + 5 * 365 * 24 * 3600 * 1000),
      signingAlgorithm: alg,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(subjectAltNames()),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  return { cert: certificate.toString('pem'), key };
}

/** SHA-256 fingerprint of a PEM certificate, for pinning (same form as loadTls's). */
export const fingerprintOf = (pem: string): string => new X509Certificate(pem).fingerprint256;

/** The colon-less lower-case form, as some clients take pins. */
export const compactFingerprint = (fp: string): string => fp.replace(/:/g, '').toLowerCase();

export const sha256Hex = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
