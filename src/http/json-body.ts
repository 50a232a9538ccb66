/**
 * JSON request bodies (issue #18: /health while several large image bodies arrive together). Every JSON
 * body is collected as one Buffer (Fastify's parseAs 'buffer'). Bodies below JSON_WORKER_MIN_BYTES, and
 * bodies of routes outside the face and fingerprint groups, are parsed here by Fastify's default parser
 * (secure-json-parse; prototype poisoning refused). Larger bodies of the face and fingerprint routes go to
 * one worker thread (json-body-worker.ts; started on the first such body, stopped with the server): it
 * parses them with the same parser and options and decodes their base64 `imageData` fields with the
 * routes' own decoder, so the main thread only receives the parsed body, with '' in each decoded field,
 * and the image bytes, moved rather than copied. The routes take those bytes through `takeDecodedImage`
 * (image-limits.ts imageFieldOf); schema validation runs on the parsed body as before.
 *
 * Errors are the same as without the worker: a body the worker cannot parse comes back whole and the
 * default parser refuses it here (same 400 and message); an image field the worker cannot decode stays as
 * text and the route refuses it as before. Should the worker itself be unavailable, the body's bytes are
 * gone with it and the request fails with ENGINE_UNAVAILABLE (503).
 *
 * Measured (bench/body-parse.ts, one ~2.8 MB PNG body): JSON.parse ~10 ms + base64 decoding ~4 ms on the
 * main thread before; the worker round trip costs the main thread well under 1 ms (posting, and receiving
 * a small object and moved buffers).
 */
import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify';
import { BiostationError } from '../runtime/errors.js';
import { WorkerPool } from '../runtime/worker-pool.js';

/** Bodies from this size on (bytes) are parsed on the worker (below it the round trip is not worth it). */
export const JSON_WORKER_MIN_BYTES = 256 * 1024;
/** Routes whose bodies may hold base64 images (`imageData` of the body, of its array items, of its `Images` items). */
const IMAGE_ROUTE = /^\/api\/v1\/services\/(?:face|finger)\//;

/** Main thread -> worker: the body's bytes (moved) and the routes' limits on image fields. */
export interface JsonBodyRequest {
  bytes: Uint8Array<ArrayBuffer>;
  /** Longest image field decoded there, characters (MAX_IMAGE_BASE64_CHARS). */
  maxChars: number;
  /** Largest decoded image, bytes (IMAGE_LIMITS.maxBytes). */
  maxBytes: number;
}

/** One image field the worker decoded: where it is (keys from the body down to the object holding `imageData`), its length in characters, its bytes. */
export interface DecodedImage {
  path: (string | number)[];
  chars: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Worker -> main thread. */
export type JsonBodyReply =
  | { parsed: true; body: unknown; images: DecodedImage[] }
  | { parsed: false; bytes: Uint8Array<ArrayBuffer> };

/** Objects of parsed bodies whose `imageData` the worker decoded, with the field's original length in characters and its bytes. */
const decoded = new WeakMap<object, { chars: number; bytes: Uint8Array }>();

/**
 * The image the body-parse worker decoded from `holder.imageData`, once (the entry is removed); undefined
 * when the field was not decoded there (small body, other route, or a field left for the route to refuse).
 */
export function takeDecodedImage(holder: object): { chars: number; bytes: Uint8Array } | undefined {
  const entry = decoded.get(holder);
  if (entry) decoded.delete(holder);
  return entry;
}

function holderAt(body: unknown, path: (string | number)[]): object | undefined {
  let at: unknown = body;
  for (const key of path) at = (at as Record<string | number, unknown> | null)?.[key];
  return typeof at === 'object' && at !== null ? at : undefined;
}

/**
 * Replaces the application's JSON parser by the one described above; the worker stops when the app closes.
 * @param limits the image routes' limits (the worker decodes only fields within them)
 */
export function registerJsonBodyParser(app: FastifyInstance, limits: { maxChars: number; maxBytes: number }): void {
  const parseHere = app.getDefaultJsonParser('error', 'error') as unknown as (request: FastifyRequest, body: Buffer, done: (e: Error | null, body?: unknown) => void) => void;
  const parseHereAsync = (request: FastifyRequest, body: Buffer) =>
    new Promise<unknown>((resolve, reject) => parseHere(request, body, (e, parsed) => (e ? reject(e) : resolve(parsed))));
  let pool: WorkerPool<JsonBodyRequest, JsonBodyReply> | undefined;
  const workers = () => (pool ??= new WorkerPool<JsonBodyRequest, JsonBodyReply>({
    module: new URL('./json-body-worker.js', import.meta.url),
    size: 1,
    respawn: true,
    label: 'JSON body worker',
    unavailable: (message) => new BiostationError('ENGINE_UNAVAILABLE', message),
    revive: (e) => new Error(e.message),
  }));
  app.addHook('onClose', async () => {
    await pool?.close();
  });

  const parser = async (request: FastifyRequest, body: Buffer): Promise<unknown> => {
    if (body.length < JSON_WORKER_MIN_BYTES || !IMAGE_ROUTE.test(request.routeOptions.url ?? '')) return parseHereAsync(request, body);
    // A body of its own ArrayBuffer moves to the worker; one inside a larger buffer is copied first.
    const bytes = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer
      ? new Uint8Array(body.buffer)
      : new Uint8Array(body);
    const reply = await workers().run({ bytes, ...limits }, { transfer: [bytes.buffer] });
    if (!reply.parsed) return parseHereAsync(request, Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
    for (const image of reply.images) {
      const holder = holderAt(reply.body, image.path);
      if (holder) decoded.set(holder, { chars: image.chars, bytes: image.bytes });
    }
    return reply.body;
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parser as unknown as FastifyBodyParser<Buffer>);
}
