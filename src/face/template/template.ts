/**
 * Versioned binary face template.
 *
 * Layout (little-endian):
 *   0  4 bytes  magic "BSFT"
 *   4  u8       format version (1)
 *   5  u8       vector encoding: 1 = float32
 *   6  u16      dimension D
 *   8  u8       model id length L
 *   9  L bytes  model id (ASCII), e.g. "dlib-r34-128+mfn-192/lm68-chip150-arc112+flip@2"
 *   9+L D*4     L2-normalised vector
 * The engine's 320-d template is 9 + 47 + 1280 = 1,336 bytes.
 */
import { FaceError } from '../errors.js';

const MAGIC = [0x42, 0x53, 0x46, 0x54];
export const TEMPLATE_FORMAT_VERSION = 1;
const ENC_F32 = 1;

export interface DecodedTemplate {
  modelId: string;
  vector: Float32Array;
}

/** Encodes an (already L2-normalised) vector with its model id. */
export function encodeTemplate(modelId: string, vector: Float32Array): Uint8Array {
  const id = new TextEncoder().encode(modelId);
  if (id.length > 255) throw new Error('model id too long');
  const out = new Uint8Array(9 + id.length + vector.length * 4);
  const dv = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = TEMPLATE_FORMAT_VERSION;
  out[5] = ENC_F32;
  dv.setUint16(6, vector.length, true);
  out[8] = id.length;
  out.set(id, 9);
  const off = 9 + id.length;
  for (let i = 0; i < vector.length; i++) dv.setFloat32(off + 4 * i, vector[i], true);
  return out;
}

/**
 * Parses a template.
 * @throws FaceError INVALID_TEMPLATE (bad magic, unknown format/encoding, wrong length, non-finite values).
 */
export function decodeTemplate(t: Uint8Array): DecodedTemplate {
  if (!(t instanceof Uint8Array) || t.length < 9 || MAGIC.some((m, i) => t[i] !== m)) {
    throw new FaceError('INVALID_TEMPLATE', 'Not a Biostation face template');
  }
  if (t[4] !== TEMPLATE_FORMAT_VERSION || t[5] !== ENC_F32) {
    throw new FaceError('INVALID_TEMPLATE', `Unknown face template format ${t[4]}/${t[5]}`);
  }
  const dv = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const dim = dv.getUint16(6, true);
  const idLen = t[8];
  const off = 9 + idLen;
  if (t.length !== off + dim * 4) throw new FaceError('INVALID_TEMPLATE', 'Face template has the wrong length');
  const modelId = new TextDecoder().decode(t.subarray(9, off));
  const vector = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    const v = dv.getFloat32(off + 4 * i, true);
    if (!Number.isFinite(v)) throw new FaceError('INVALID_TEMPLATE', 'Face template holds non-finite values');
    vector[i] = v;
  }
  return { modelId, vector };
}

/** Decodes and checks that the template was made by `modelId` with dimension `dim`. */
export function decodeCompatible(t: Uint8Array, modelId: string, dim: number): Float32Array {
  const d = decodeTemplate(t);
  if (d.modelId !== modelId || d.vector.length !== dim) {
    throw new FaceError('TEMPLATE_INCOMPATIBLE', `Template made by "${d.modelId}" (${d.vector.length}-d); this engine uses "${modelId}" (${dim}-d)`, {
      templateModelId: d.modelId,
      engineModelId: modelId,
    });
  }
  return d.vector;
}

/** Cosine similarity of two vectors of equal length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb || 1);
}
