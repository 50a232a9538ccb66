/**
 * Fidelity of the converted ONNX models against the original TF.js runtime (face-api.js on the
 * tfjs CPU backend) on 24 real LFW photos: same pixels in, outputs compared element-wise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODELS_BUILD_DIR, buildModels, packageDir } from '../../models/convert.js';
import { HAVE_LFW, LFW_IMAGES } from './datasets.js';

type TfNet = {
  loadFromWeightMap(m: unknown): void;
  forwardInput(input: unknown, size?: number): { data(): Promise<Float32Array> };
  runNet(input: unknown): { data(): Promise<Float32Array> };
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let faceapi: any;
let images: string[] = [];

async function pixels(file: string, size: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(file).resize(size, size, { fit: 'fill' }).removeAlpha().raw().toBuffer());
}

function toNchw(rgb: Uint8Array, size: number): Float32Array {
  const out = new Float32Array(3 * size * size);
  for (let i = 0; i < size * size; i++) for (let c = 0; c < 3; c++) out[c * size * size + i] = rgb[i * 3 + c];
  return out;
}

async function loadTf(name: string): Promise<TfNet> {
  const dir = path.join(packageDir('@vladmandic/face-api'), 'model');
  const groups = JSON.parse(readFileSync(path.join(dir, `${name}-weights_manifest.json`), 'utf8'));
  const specs = groups.flatMap((g: { weights: unknown[] }) => g.weights);
  const buf = readFileSync(path.join(dir, groups[0].paths[0]));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const map = faceapi.tf.io.decodeWeights(ab, specs);
  const net = {
    face_recognition_model: faceapi.nets.faceRecognitionNet,
    face_landmark_68_model: faceapi.nets.faceLandmark68Net,
    tiny_face_detector_model: faceapi.nets.tinyFaceDetector,
  }[name] as TfNet;
  net.loadFromWeightMap(map);
  return net;
}

function compare(a: Float32Array, b: Float32Array): { maxAbs: number; cosine: number } {
  let maxAbs = 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(a[i] - b[i]));
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return { maxAbs, cosine: dot / Math.sqrt(na * nb) };
}

describe.skipIf(!HAVE_LFW)('ONNX models match the TF.js originals on real images', () => {
  beforeAll(async () => {
    buildModels(MODELS_BUILD_DIR);
    const warn = console.warn;
    console.warn = () => {};
    faceapi = await import('@vladmandic/face-api/dist/face-api.esm-nobundle.js');
    console.warn = warn;
    await faceapi.tf.setBackend('cpu');
    await faceapi.tf.ready();
    images = readdirSync(LFW_IMAGES).filter((f) => f.endsWith('.jpg')).sort().filter((_, i) => i % 150 === 0).slice(0, 24).map((f) => path.join(LFW_IMAGES, f));
    expect(images.length).toBeGreaterThanOrEqual(20);
  });

  const cases = [
    { model: 'face_recognition_dlib_r34', tfName: 'face_recognition_model', size: 150, tol: 1e-4 },
    { model: 'face_landmark_68', tfName: 'face_landmark_68_model', size: 112, tol: 1e-4 },
    { model: 'tiny_face_detector', tfName: 'tiny_face_detector_model', size: 320, tol: 1e-3 },
  ];
  for (const c of cases) {
    it(`${c.model}: max abs difference <= ${c.tol} on 24 LFW images`, async () => {
      const session = await ort.InferenceSession.create(path.join(MODELS_BUILD_DIR, `${c.model}.onnx`));
      const net = await loadTf(c.tfName);
      let worst = 0;
      for (const file of images) {
        const rgb = await pixels(file, c.size);
        const input = faceapi.tf.tensor4d(Float32Array.from(rgb), [1, c.size, c.size, 3]);
        const netInput = await faceapi.toNetInput(input);
        let ref: Float32Array;
        if (c.model === 'tiny_face_detector') {
          const nhwc = await net.forwardInput(netInput, c.size).data();
          // NHWC [1,g,g,25] -> NCHW [1,25,g,g]
          const cells = c.size / 32;
          ref = new Float32Array(nhwc.length);
          for (let p = 0; p < cells * cells; p++) for (let k = 0; k < 25; k++) ref[k * cells * cells + p] = nhwc[p * 25 + k];
        } else if (c.model === 'face_landmark_68') {
          ref = await net.runNet(netInput).data();
        } else {
          ref = await net.forwardInput(netInput).data();
        }
        input.dispose();
        const out = await session.run({ input: new ort.Tensor('float32', toNchw(rgb, c.size), [1, 3, c.size, c.size]) });
        const got = Object.values(out)[0].data as Float32Array;
        const { maxAbs, cosine } = compare(ref, got);
        worst = Math.max(worst, maxAbs);
        expect(cosine).toBeGreaterThan(0.9999);
      }
      console.log(`[fidelity] ${c.model}: worst max-abs difference ${worst.toExponential(2)} over ${images.length} images`);
      expect(worst).toBeLessThanOrEqual(c.tol);
    }, 300_000);
  }
});
