/**
 * Parses large JSON bodies of the image routes off the station's main thread (json-body.ts): the
 * body's bytes arrive moved (not copied), are parsed with the same parser and options as Fastify's
 * default one (secure-json-parse, `__proto__` and `constructor.prototype` refused), and the base64
 * image fields are decoded here with the same function the routes use (decodeBase64Field). A field
 * that decodes is replaced by '' and its bytes are moved back with its place and character count; a
 * field that does not (bad base64, over a limit) is left as text, so the route meets it and answers as
 * before. A body that does not parse comes back whole (`parsed: false`) for the main thread's parser to
 * refuse with its usual error.
 */
import sjson from 'secure-json-parse';
import { decodeBase64Field } from '../runtime/base64.js';
import { serveWorker, transferring } from '../runtime/worker-serve.js';
import type { JsonBodyReply, JsonBodyRequest, DecodedImage } from './json-body.js';

/** The objects that may hold an `imageData` field, with their place in the body: the body, its array items, its `Images` items. */
function holders(body: unknown): { path: (string | number)[]; holder: Record<string, unknown> }[] {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const out: { path: (string | number)[]; holder: Record<string, unknown> }[] = [];
  if (Array.isArray(body)) body.forEach((item, i) => isObject(item) && out.push({ path: [i], holder: item }));
  else if (isObject(body)) {
    out.push({ path: [], holder: body });
    if (Array.isArray(body.Images)) body.Images.forEach((item, i) => isObject(item) && out.push({ path: ['Images', i], holder: item }));
  }
  return out;
}

/** A buffer of its own (transferable whole): Node's decoder returns small results inside a shared pool. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

serveWorker(() => (request: JsonBodyRequest) => {
  const { bytes, maxChars, maxBytes } = request;
  let body: unknown;
  try {
    body = sjson.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return transferring<JsonBodyReply>({ parsed: false, bytes }, [bytes.buffer]);
  }
  const images: DecodedImage[] = [];
  for (const { path, holder } of holders(body)) {
    const value = holder.imageData;
    if (typeof value !== 'string' || value.length === 0 || value.length > maxChars) continue;
    try {
      images.push({ path, chars: value.length, bytes: own(decodeBase64Field(value, 'imageData', maxBytes)) });
      holder.imageData = '';
    } catch {
      // left as text: the route decodes it again and refuses it with its own message
    }
  }
  return transferring<JsonBodyReply>({ parsed: true, body, images }, images.map((i) => i.bytes.buffer));
});
