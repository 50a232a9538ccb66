import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, fingerDpi, setUnauthorizedHandler } from '../../renderer/src/api.js';

/** Answers every fetch with `status` and `body`, recording the requests. */
function answer(status: number, body: unknown) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

beforeEach(() => {
  const store = new Map<string, string>();
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('kiosk API client', () => {
  it('logs in and sends the bearer token afterwards', async () => {
    answer(200, { token: 'ey.abc' });
    await api.login('k', 's');
    const calls = answer(200, { count: 3 });
    expect(await api.faceCount()).toBe(3);
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer ey.abc');
  });

  it('reads the stable code of a face/finger error body', async () => {
    answer(404, { result: { code: 1005, message: 'PERSON_NOT_FOUND', detail: 'No person with this ext_id' } });
    await expect(api.verifyFace('x', 'AAAA', false)).rejects.toMatchObject({ status: 404, code: 'PERSON_NOT_FOUND' });
  });

  it('turns a liveness failure carried with HTTP 200 into an error, and a non-match into an answer', async () => {
    answer(200, { result: { code: 1013, message: 'LIVENESS_CHECK_FAILED', detail: 'liveness check failed' } });
    await expect(api.verifyFace('x', 'AAAA', true)).rejects.toMatchObject({ code: 'LIVENESS_CHECK_FAILED' });
    answer(200, { result: { code: 1003, message: 'NOT_VERIFIED' }, score: 0.2, threshold: 0.9 });
    expect(await api.verifyFace('x', 'AAAA', false)).toMatchObject({ matched: false, score: 0.2, threshold: 0.9 });
    answer(200, { ExternalID: null, result: { code: 1009, message: 'NOT_IDENTIFIED' }, score: 0.5, threshold: 0.9 });
    expect(await api.identifyFinger('AAAA')).toMatchObject({ matched: false, extId: null });
    answer(200, { code: 1010, message: 'MATCH_IMAGES_SUCCESSFULLY', score: 60, threshold: 40 });
    expect(await api.compareFingers('A', 'B')).toMatchObject({ matched: true, score: 60 });
  });

  it('maps the OCR error texts of the spec to codes', async () => {
    answer(400, { statusCode: 400, message: 'Tipo de arquivo não suportado. Use PNG, JPG ou PDF', error: 'Bad Request' });
    await expect(api.readCnh(new Blob(['x']), 'a.txt')).rejects.toMatchObject({ code: 'OCR_UNSUPPORTED_TYPE' });
    answer(503, { statusCode: 503, message: 'OCR API unavailable', error: 'Service Unavailable' });
    await expect(api.readCnh(new Blob(['x']), 'a.png')).rejects.toMatchObject({ code: 'OCR_UNAVAILABLE' });
  });

  it('reports 401 to the app (which asks for the credential again) and fails writes whose code is not a success', async () => {
    const onUnauthorized = vi.fn(async () => false);
    setUnauthorizedHandler(onUnauthorized);
    answer(200, { token: 'ey.abc' });
    await api.login('k', 's');
    answer(401, { result: { code: 1015, message: 'UNAUTHORIZED' } });
    await expect(api.faceCount()).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledOnce();
    answer(200, { result: { code: 1013, message: 'LIVENESS_CHECK_FAILED' } });
    await expect(api.enrollFace('x', 'AAAA', true)).rejects.toMatchObject({ code: 'LIVENESS_CHECK_FAILED' });
  });

  it('repeats the call that met a 401 once the clerk has logged in again, with the new token', async () => {
    answer(200, { token: 'ey.old' });
    await api.login('k', 's');
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization ?? '';
      calls.push(`${url} ${auth}`);
      if (auth === 'Bearer ey.old') return new Response(JSON.stringify({ result: { code: 1015, message: 'UNAUTHORIZED' } }), { status: 401 });
      return new Response(JSON.stringify({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } }), { status: 200 });
    });
    setUnauthorizedHandler(async () => {
      sessionStorage.setItem('biostation.token', 'ey.new');
      return true;
    });
    await api.enrollFinger('p-1', 'AAAA');
    expect(calls).toEqual([
      '/api/v1/services/finger/enroll/p-1 Bearer ey.old',
      '/api/v1/services/finger/enroll/p-1 Bearer ey.new',
    ]);
  });

  it('adds every finger with POST enroll (never PATCH, which replaces the templates)', async () => {
    const calls = answer(200, { result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    await api.enrollFinger('p-2', 'AAAA');
    await api.enrollFinger('p-2', 'BBBB');
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'POST /api/v1/services/finger/enroll/p-2',
      'POST /api/v1/services/finger/enroll/p-2',
    ]);
  });

  it("sends the reader's reported dpi as the spec's string, and \"500\" only when none is known (uploaded file)", async () => {
    const calls = answer(200, { result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    await api.enrollFinger('p-3', 'AAAA', 508);
    await api.enrollFinger('p-3', 'BBBB', 1000);
    await api.enrollFinger('p-3', 'CCCC');
    await api.enrollFinger('p-3', 'DDDD', 507.9);
    expect(calls.map((c) => JSON.parse(String(c.init.body)).dpi)).toEqual(['508', '1000', '500', '508']);
    expect(fingerDpi(undefined)).toBe('500');
    expect(fingerDpi(Number.NaN)).toBe('500');
    expect(fingerDpi(508)).toBe('508');
  });

  it("sends the reader's dpi with verify, identify and compare probes too", async () => {
    const calls = answer(200, { result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, score: 40, threshold: 17 });
    // One canned answer for the three: only the request bodies matter here.
    await api.verifyFinger('p-4', 'AAAA', 600);
    await api.identifyFinger('BBBB', 1100).catch(() => undefined);
    await api.compareFingers('CCCC', 'DDDD', 650).catch(() => undefined);
    const bodies = calls.map((c) => JSON.parse(String(c.init.body)));
    expect([bodies[0].dpi, bodies[1].dpi, bodies[2][0].dpi, bodies[2][1].dpi]).toEqual(['600', '1100', '650', '500']);
  });

  it('reports a network failure as NETWORK', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(api.faceCount()).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });
});
