/**
 * The station's HTTP API as the kiosk uses it (paths and bodies from the interface spec). Same
 * origin as the page; the bearer token lives in sessionStorage for the tab's life.
 */
import type { PersonDocument } from './document-record.js';

const TOKEN_KEY = 'biostation.token';
const APP_KEY = 'biostation.appKey';

/** A person already enrolled whom a new sample matched (de-duplication at enrollment). */
export interface Duplicate {
  extId: string;
  modality: 'face' | 'finger';
  score: number;
}

/** A failed call: `code` is the stable code (result.message, `code` of plain errors, OCR/HTTP text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** DUPLICATE_FOUND: the persons the sample matched. */
    readonly duplicates: Duplicate[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The outcome of a decision (verify, identify, compare). */
export interface Decision {
  matched: boolean;
  code: number;
  message: string;
  score?: number;
  threshold?: number;
  extId?: string | null;
  /** false when liveness was asked but the station did not evaluate it. */
  livenessEvaluated?: boolean;
  /** Whether the request asked for the liveness check (doLivenessCheck). */
  livenessRequested: boolean;
  /** How the scores run: 'cosine' for faces (at most ~1), 'open' for fingerprints (see confidenceWord). */
  scoreScale: 'open' | 'cosine';
  /** Identify: every person at or above the threshold, best first (one entry when only the best is). */
  candidates?: Array<{ extId: string; score: number }>;
}

export interface OcrField {
  valor: string;
  confianca: number;
  valido?: boolean;
  valida?: boolean;
}

export interface OcrResult {
  success: boolean;
  documento_tipo: string;
  campos: Record<string, OcrField>;
  metadados: {
    total_campos_extraidos: number;
    qualidade_imagem: string;
    confianca_media_ocr: number;
    tempo_processamento: number;
    campos_com_baixa_confianca: string[];
    tamanho_arquivo_bytes: number;
    tipo_arquivo: string;
    nome_arquivo: string;
  };
  texto_completo_ocr: string;
  /** Extension: the card photo and its comparison with the selfie sent along (src/http/routes/ocr-face.ts). */
  face?: {
    found: boolean;
    box?: { x: number; y: number; width: number; height: number };
    comparison?: { against: 'selfie' | 'ext_id'; matched?: boolean; score?: number; threshold?: number; error?: string };
  };
}

export interface ReadyStatus {
  ready: boolean;
  engines: Record<'face' | 'finger' | 'ocr', 'disabled' | 'loading' | 'ready' | 'failed'>;
}

/** Session helpers. */
export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  appKey: (): string | null => sessionStorage.getItem(APP_KEY),
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(APP_KEY);
  },
  /** Forgets the token only (expired session): the key stays so the clerk types only the secret. */
  expire(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** The spec's ext_id: 1 to 128 of letters, digits and . _ @ : + - (schemas.ts ExtIdParams). */
export function isValidExtId(extId: string): boolean {
  return /^[A-Za-z0-9._@:+-]{1,128}$/.test(extId);
}

/** One pull from a peer station (GET /api/v1/sync/status, POST /api/v1/sync/pull). */
export interface SyncRecord {
  peerUrl: string;
  startedAt: string;
  finishedAt: string;
  pulled: number;
  created: number;
  updated: number;
  /** Persons deleted by the peer's tombstones (absent in records written before deletions synced). */
  deleted?: number;
  skipped: number;
  /** Persons refused: their templates belong to another model version. */
  refused?: number;
  error: string | null;
}

export interface SyncStatus {
  /** Peers the station operator configured for this application (BIOSTATION_SYNC_PEERS): name and origin. */
  peers?: Array<{ name: string; url: string }>;
  lastSync: SyncRecord | null;
  history: SyncRecord[];
}

let onUnauthorized: () => Promise<boolean> = async () => false;
let pendingReauth: Promise<boolean> | null = null;
/**
 * Called when a call answers 401: the app asks for the credential again without leaving the
 * screen (the work in progress stays), and resolves true once a new token is stored. The call
 * that met the 401 is then repeated once; concurrent 401s share one prompt.
 */
export function setUnauthorizedHandler(fn: () => Promise<boolean>): void {
  onUnauthorized = fn;
}

async function reauthenticate(): Promise<boolean> {
  pendingReauth ??= onUnauthorized().finally(() => {
    pendingReauth = null;
  });
  return pendingReauth;
}

async function call<T>(method: string, path: string, body?: unknown, init: { raw?: BodyInit; auth?: boolean; retried?: boolean; bearer?: string } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  // `bearer`: another credential than the application's (the station-admin session); no re-login for it.
  const token = init.bearer === undefined ? session.token() : null;
  if (init.bearer !== undefined) headers.Authorization = `Bearer ${init.bearer}`;
  else if (init.auth !== false && token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: init.raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'network error');
  }
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  // A 401 on a call that carried a token (or met while a re-login is pending) means the session
  // expired: wait for the credential and repeat the call once. Without a session there is no prompt.
  if (res.status === 401 && init.auth !== false && !init.retried && (token !== null || pendingReauth !== null)) {
    session.expire();
    if (await reauthenticate()) return call<T>(method, path, body, { ...init, retried: true });
  }
  if (!res.ok) throw errorOf(res.status, json);
  return json as T;
}

/** The OCR group's error texts (spec: OCR errors) as stable codes the UI translates. */
const OCR_MESSAGE_CODES: Record<string, string> = {
  'Arquivo não enviado': 'OCR_NO_FILE',
  'Tipo de arquivo não suportado. Use PNG, JPG ou PDF': 'OCR_UNSUPPORTED_TYPE',
  'Arquivo muito grande. Tamanho máximo: 20MB': 'OCR_TOO_LARGE',
  'Erro ao processar documento': 'OCR_PROCESSING_FAILED',
  'OCR API unavailable': 'OCR_UNAVAILABLE',
  Unauthorized: 'UNAUTHORIZED',
};

/** Reads a stable code out of any of the spec's error bodies. */
function errorOf(status: number, json: any): ApiError {
  const result = json?.result;
  if (result && typeof result.message === 'string') return new ApiError(status, result.message, result.detail ?? result.message, duplicatesOf(json));
  if (json && typeof json.message === 'string' && OCR_MESSAGE_CODES[json.message]) return new ApiError(status, OCR_MESSAGE_CODES[json.message]!, json.message);
  if (json && typeof json.code === 'string') return new ApiError(status, json.code, json.message ?? json.code);
  if (json && typeof json.error_code === 'string') return new ApiError(status, json.error_code, json.message ?? '');
  if (status === 401) return new ApiError(status, 'UNAUTHORIZED', 'Unauthorized');
  if (status === 503) return new ApiError(status, 'ENGINE_UNAVAILABLE', json?.message ?? 'unavailable');
  return new ApiError(status, json?.message ? String(json.message) : `HTTP_${status}`, json?.message ?? `HTTP ${status}`);
}

/** The `duplicates` of an enroll response or refusal (API extension), as Duplicate[]. */
function duplicatesOf(json: any): Duplicate[] {
  return Array.isArray(json?.duplicates)
    ? json.duplicates.map((d: any) => ({ extId: String(d.ExternalID), modality: d.modality === 'finger' ? 'finger' : 'face', score: Number(d.score) }))
    : [];
}

/** Outcomes that are answers, not failures (the spec's non-match codes). */
const NEGATIVE = new Set(['NOT_VERIFIED', 'NOT_IDENTIFIED', 'NOT_MATCHED']);

/** A decision body -> Decision; a failure carried with HTTP 200 (e.g. 1013 LIVENESS_CHECK_FAILED) throws ApiError. */
function decision(json: any, successCode: number, livenessRequested = false, scoreScale: Decision['scoreScale'] = 'open'): Decision {
  const r = json.result ?? json;
  if (r.code !== successCode && !NEGATIVE.has(r.message)) throw new ApiError(200, r.message, r.detail ?? r.message);
  return {
    livenessRequested,
    scoreScale,
    matched: r.code === successCode,
    code: r.code,
    message: r.message,
    score: json.score,
    threshold: json.threshold,
    extId: json.ExternalID,
    livenessEvaluated: json.livenessEvaluated,
    candidates: Array.isArray(json.candidates)
      ? json.candidates.map((c: any) => ({ extId: String(c.ExternalID), score: Number(c.score) }))
      : json.ExternalID && r.code === successCode ? [{ extId: String(json.ExternalID), score: Number(json.score) }] : undefined,
  };
}

const FACE = '/api/v1/services/face';
const FINGER = '/api/v1/services/finger';
/**
 * A face body. `frames`: extra frames of the first image's capture (FaceImage.frames), sent as the
 * station's `livenessFrames` extension only when the liveness check is asked (the station refuses them
 * otherwise) and there are some (a photo upload has none).
 */
const faceBody = (images: string[], liveness: boolean, frames?: string[]) => ({
  doLivenessCheck: liveness,
  Images: images.map((imageData) => ({ imageType: 'frontal', imageData })),
  ...(liveness && frames && frames.length > 0 ? { livenessFrames: frames.map((imageData) => ({ imageType: 'frontal', imageData })) } : {}),
});
/** Throws when a write's result code is not the expected success code. */
function expectCode(json: any, code: number): void {
  const r = json.result ?? json;
  if (r.code !== code) throw new ApiError(200, r.message, r.detail ?? r.message);
}

/** An application as the station-admin API lists it. */
export interface AdminApplication {
  name: string;
  key: string;
  createdAt: string;
  disabledAt: string | null;
  dedupPolicy: 'off' | 'warn' | 'block';
}

/** A sync peer of an application as the station-admin API lists it (never its secret). */
export interface AdminSyncPeer {
  name: string;
  url: string;
  key: string;
  /** config: the station's configuration (read-only); admin: added from this screen. */
  source: 'config' | 'admin';
}

const ADMIN = '/api/v1/admin';
const ADMIN_TOKEN_KEY = 'biostation.adminToken';

/**
 * The station-admin API (src/http/routes/admin.ts): a session token for the station-admin secret,
 * kept in sessionStorage, never the application's token.
 */
export const adminApi = {
  token: (): string | null => sessionStorage.getItem(ADMIN_TOKEN_KEY),
  async unlock(secret: string): Promise<void> {
    const { token } = await call<{ token: string }>('POST', `${ADMIN}/session`, { secret }, { auth: false });
    sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
  },
  async lock(): Promise<void> {
    const token = adminApi.token();
    sessionStorage.removeItem(ADMIN_TOKEN_KEY);
    if (token) await call('DELETE', `${ADMIN}/session`, undefined, { bearer: token }).catch(() => undefined);
  },
  /** Runs an admin call; a 401 (session over) forgets the admin token before rethrowing. */
  async run<T>(method: string, path: string, body?: unknown): Promise<T> {
    try {
      return await call<T>(method, `${ADMIN}${path}`, body, { bearer: adminApi.token() ?? '' });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) sessionStorage.removeItem(ADMIN_TOKEN_KEY);
      throw e;
    }
  },
  applications: async () => (await adminApi.run<{ applications: AdminApplication[] }>('GET', '/applications')).applications,
  create: (name: string) => adminApi.run<{ name: string; key: string; secret: string }>('POST', '/applications', { name }),
  disable: (key: string) => adminApi.run('POST', `/applications/${encodeURIComponent(key)}/disable`),
  rotate: (key: string) => adminApi.run<{ name: string; key: string; secret: string }>('POST', `/applications/${encodeURIComponent(key)}/rotate`),
  setDedup: (key: string, policy: AdminApplication['dedupPolicy']) => adminApi.run('PUT', `/applications/${encodeURIComponent(key)}/dedup`, { policy }),
  /** Sync peers of an application (src/http/routes/admin-peers.ts). */
  syncPeers: async (key: string) => (await adminApi.run<{ peers: AdminSyncPeer[] }>('GET', `/applications/${encodeURIComponent(key)}/sync-peers`)).peers,
  addSyncPeer: (key: string, peer: { name: string; url: string; key: string; secret: string }) =>
    adminApi.run<{ peer: AdminSyncPeer }>('POST', `/applications/${encodeURIComponent(key)}/sync-peers`, peer),
  removeSyncPeer: (key: string, name: string) => adminApi.run('DELETE', `/applications/${encodeURIComponent(key)}/sync-peers/${encodeURIComponent(name)}`),
};

/** The finger body's dpi string: the reported resolution rounded to whole dots per inch, "500" when none is known. */
export function fingerDpi(dpi: number | undefined): string {
  return dpi === undefined || !Number.isFinite(dpi) ? '500' : String(Math.round(dpi));
}

/** Every API call of the kiosk. Images are base64 without a data: prefix. */
export const api = {
  /** Keeps the confirmed document with the person (extension, docs/enrollment-extensions.md). */
  saveDocument: async (extId: string, doc: PersonDocument) =>
    (await call<{ document: PersonDocument & { updatedAt: string } }>('PUT', `/api/v1/persons/${encodeURIComponent(extId)}/document`, doc)).document,
  /** The person's document record, null when none (extension). @throws ApiError PERSON_NOT_FOUND */
  getDocument: async (extId: string) =>
    (await call<{ document: (PersonDocument & { updatedAt: string }) | null }>('GET', `/api/v1/persons/${encodeURIComponent(extId)}/document`)).document,
  syncStatus: () => call<SyncStatus>('GET', '/api/v1/sync/status'),
  /** Pulls from (or pushes to) a peer configured for this application, by name. */
  syncRun: async (direction: 'pull' | 'push', peer: string) => (await call<{ sync: SyncRecord }>('POST', `/api/v1/sync/${direction}`, { peer })).sync,
  /** Exchanges key+secret for a token and remembers it for the tab. */
  async login(key: string, secret: string): Promise<void> {
    const { token } = await call<{ token: string }>('POST', '/api/v1/app-credentials/token', { key, secret }, { auth: false });
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(APP_KEY, key);
  },
  health: () => call<{ status: string }>('GET', '/health', undefined, { auth: false }),
  async ready(): Promise<ReadyStatus> {
    const res = await fetch('/ready');
    return (await res.json()) as ReadyStatus;
  },
  faceCount: async () => (await call<{ count: number }>('GET', `${FACE}/count`)).count,
  fingerCount: async () => (await call<{ count: number }>('GET', `${FINGER}/count`)).count,
  faceDump: (page: number, limit: number) =>
    call<{ result: { total_entries: number; faces: unknown[] } }>('GET', `${FACE}/dump?page=${page}&limit=${limit}`),
  /** Enrolls a face; returns the persons it matched (policy warn), empty when none. */
  async enrollFace(extId: string, image: string, liveness: boolean, frames?: string[]): Promise<Duplicate[]> {
    const json = await call('POST', `${FACE}/enroll/${encodeURIComponent(extId)}`, { ...faceBody([image], liveness, frames), ReturnTemplate: false });
    expectCode(json, 1000);
    return duplicatesOf(json);
  },
  /**
   * Adds one fingerprint to the person (POST /finger/enroll creates the person or adds a finger to
   * it; PATCH would replace every template the person holds, so the kiosk never uses it).
   * `dpi`: the resolution the reader reported with the image (upektc_img: 508), sent as the spec's
   * string; "500" (the spec's value) only when none is known (an uploaded file). A reported dpi
   * outside the station's range (100 to 2000) is sent as is and refused by the station, not replaced.
   */
  async enrollFinger(extId: string, image: string, dpi?: number): Promise<Duplicate[]> {
    const body = { position: 'UNKNOWN', dpi: fingerDpi(dpi), imageData: image };
    const json = await call('POST', `${FINGER}/enroll/${encodeURIComponent(extId)}`, body);
    expectCode(json, 1000);
    return duplicatesOf(json);
  },
  fingerTemplateCount: async (extId: string) => (await call<{ count: number }>('GET', `${FINGER}/templates/count/${encodeURIComponent(extId)}`)).count,
  /** `frames`: the capture's extra frames (sent only with liveness; see faceBody). */
  verifyFace: async (extId: string, image: string, liveness: boolean, frames?: string[]) =>
    decision(await call('POST', `${FACE}/${encodeURIComponent(extId)}/verify`, faceBody([image], liveness, frames)), 1002, liveness, 'cosine'),
  /** `dpi`: as in enrollFinger; the station resamples the probe to the engine's resolution. */
  verifyFinger: async (extId: string, image: string, dpi?: number) =>
    decision(await call('POST', `${FINGER}/${encodeURIComponent(extId)}/verify`, { dpi: fingerDpi(dpi), imageData: image }), 1002),
  identifyFace: async (image: string, liveness: boolean, frames?: string[]) =>
    decision(await call('POST', `${FACE}/identify`, faceBody([image], liveness, frames)), 1008, liveness, 'cosine'),
  identifyFinger: async (image: string, dpi?: number) =>
    decision(await call('POST', `${FINGER}/identify`, { dpi: fingerDpi(dpi), imageData: image }), 1008),
  compareFaces: async (a: string, b: string, liveness: boolean) => decision(await call('POST', `${FACE}/match`, faceBody([a, b], liveness)), 1002, liveness, 'cosine'),
  compareFingers: async (a: string, b: string, dpiA?: number, dpiB?: number) =>
    decision(await call('POST', `${FINGER}/images/match`, [{ dpi: fingerDpi(dpiA), imageData: a }, { dpi: fingerDpi(dpiB), imageData: b }]), 1010),
  /** Reads a CNH; with `selfieBase64` (JPEG) the card photo is also compared with that face. */
  async readCnh(file: Blob, name: string, selfieBase64?: string): Promise<OcrResult> {
    const form = new FormData();
    form.append('file', file, name);
    if (selfieBase64) form.append('selfie', new Blob([Uint8Array.from(atob(selfieBase64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }), 'selfie.jpg');
    return call<OcrResult>('POST', '/api/v1/services/ocr/process-cnh', undefined, { raw: form });
  },
};
