/**
 * The station's HTTP API as the kiosk uses it (paths and bodies from the interface spec). Same
 * origin as the page; the bearer token lives in sessionStorage for the tab's life.
 */

const TOKEN_KEY = 'biostation.token';
const APP_KEY = 'biostation.appKey';

/** A failed call: `code` is the stable code (result.message, `code` of plain errors, OCR/HTTP text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
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
  skipped: number;
  error: string | null;
}

export interface SyncStatus {
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

async function call<T>(method: string, path: string, body?: unknown, init: { raw?: BodyInit; auth?: boolean; retried?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  const token = session.token();
  if (init.auth !== false && token) headers.Authorization = `Bearer ${token}`;
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
  if (result && typeof result.message === 'string') return new ApiError(status, result.message, result.detail ?? result.message);
  if (json && typeof json.message === 'string' && OCR_MESSAGE_CODES[json.message]) return new ApiError(status, OCR_MESSAGE_CODES[json.message]!, json.message);
  if (json && typeof json.code === 'string') return new ApiError(status, json.code, json.message ?? json.code);
  if (json && typeof json.error_code === 'string') return new ApiError(status, json.error_code, json.message ?? '');
  if (status === 401) return new ApiError(status, 'UNAUTHORIZED', 'Unauthorized');
  if (status === 503) return new ApiError(status, 'ENGINE_UNAVAILABLE', json?.message ?? 'unavailable');
  return new ApiError(status, json?.message ? String(json.message) : `HTTP_${status}`, json?.message ?? `HTTP ${status}`);
}

/** Outcomes that are answers, not failures (the spec's non-match codes). */
const NEGATIVE = new Set(['NOT_VERIFIED', 'NOT_IDENTIFIED', 'NOT_MATCHED']);

/** A decision body -> Decision; a failure carried with HTTP 200 (e.g. 1013 LIVENESS_CHECK_FAILED) throws ApiError. */
function decision(json: any, successCode: number, livenessRequested = false): Decision {
  const r = json.result ?? json;
  if (r.code !== successCode && !NEGATIVE.has(r.message)) throw new ApiError(200, r.message, r.detail ?? r.message);
  return {
    livenessRequested,
    matched: r.code === successCode,
    code: r.code,
    message: r.message,
    score: json.score,
    threshold: json.threshold,
    extId: json.ExternalID,
    livenessEvaluated: json.livenessEvaluated,
  };
}

const FACE = '/api/v1/services/face';
const FINGER = '/api/v1/services/finger';
const faceBody = (images: string[], liveness: boolean) => ({
  doLivenessCheck: liveness,
  Images: images.map((imageData) => ({ imageType: 'frontal', imageData })),
});
/** Throws when a write's result code is not the expected success code. */
function expectCode(json: any, code: number): void {
  const r = json.result ?? json;
  if (r.code !== code) throw new ApiError(200, r.message, r.detail ?? r.message);
}

/** Every API call of the kiosk. Images are base64 without a data: prefix. */
export const api = {
  syncStatus: () => call<SyncStatus>('GET', '/api/v1/sync/status'),
  syncPull: async (peerUrl: string, key: string, secret: string) =>
    (await call<{ sync: SyncRecord }>('POST', '/api/v1/sync/pull', { peerUrl, key, secret })).sync,
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
  async enrollFace(extId: string, image: string, liveness: boolean): Promise<void> {
    expectCode(await call('POST', `${FACE}/enroll/${encodeURIComponent(extId)}`, { ...faceBody([image], liveness), ReturnTemplate: false }), 1000);
  },
  /**
   * Adds one fingerprint to the person (POST /finger/enroll creates the person or adds a finger to
   * it; PATCH would replace every template the person holds, so the kiosk never uses it).
   */
  async enrollFinger(extId: string, image: string): Promise<void> {
    const body = { position: 'UNKNOWN', dpi: '500', imageData: image };
    expectCode(await call('POST', `${FINGER}/enroll/${encodeURIComponent(extId)}`, body), 1000);
  },
  fingerTemplateCount: async (extId: string) => (await call<{ count: number }>('GET', `${FINGER}/templates/count/${encodeURIComponent(extId)}`)).count,
  verifyFace: async (extId: string, image: string, liveness: boolean) =>
    decision(await call('POST', `${FACE}/${encodeURIComponent(extId)}/verify`, faceBody([image], liveness)), 1002, liveness),
  verifyFinger: async (extId: string, image: string) =>
    decision(await call('POST', `${FINGER}/${encodeURIComponent(extId)}/verify`, { imageData: image }), 1002),
  identifyFace: async (image: string, liveness: boolean) => decision(await call('POST', `${FACE}/identify`, faceBody([image], liveness)), 1008, liveness),
  identifyFinger: async (image: string) => decision(await call('POST', `${FINGER}/identify`, { imageData: image }), 1008),
  compareFaces: async (a: string, b: string, liveness: boolean) => decision(await call('POST', `${FACE}/match`, faceBody([a, b], liveness)), 1002, liveness),
  compareFingers: async (a: string, b: string) =>
    decision(await call('POST', `${FINGER}/images/match`, [{ imageData: a }, { imageData: b }]), 1010),
  async readCnh(file: Blob, name: string): Promise<OcrResult> {
    const form = new FormData();
    form.append('file', file, name);
    return call<OcrResult>('POST', '/api/v1/services/ocr/process-cnh', undefined, { raw: form });
  },
};
