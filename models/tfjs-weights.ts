/**
 * Reader for TensorFlow.js "weights manifest + binary shards" files (the format of
 * @vladmandic/face-api's model/ folder). Dequantises uint8/uint16/float16-free layouts:
 * value = q * scale + min (tfjs io.decodeWeights).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface WeightTensor {
  shape: number[];
  data: Float32Array;
}

interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  quantization?: { dtype: 'uint8' | 'uint16'; scale: number; min: number };
}

interface ManifestGroup {
  paths: string[];
  weights: ManifestEntry[];
}

/**
 * Loads every tensor of a TF.js weights manifest.
 * @param manifestPath path of `<name>-weights_manifest.json`; shards are resolved beside it.
 * @returns map name -> {shape (TF.js layout, e.g. HWIO for conv filters), float32 data}.
 * @throws Error when a shard is shorter than the manifest says.
 */
export function readTfjsWeights(manifestPath: string): Map<string, WeightTensor> {
  const dir = path.dirname(manifestPath);
  const groups = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestGroup[];
  const out = new Map<string, WeightTensor>();
  for (const g of groups) {
    const shards = g.paths.map((p) => readFileSync(path.join(dir, p)));
    const buf = Buffer.concat(shards);
    let off = 0;
    for (const w of g.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const data = new Float32Array(n);
      if (w.quantization) {
        const bytes = w.quantization.dtype === 'uint8' ? 1 : 2;
        if (off + n * bytes > buf.length) throw new Error(`shard too short for ${w.name}`);
        const { scale, min } = w.quantization;
        for (let i = 0; i < n; i++) {
          const q = bytes === 1 ? buf[off + i] : buf.readUInt16LE(off + 2 * i);
          data[i] = q * scale + min;
        }
        off += n * bytes;
      } else {
        if (off + n * 4 > buf.length) throw new Error(`shard too short for ${w.name}`);
        for (let i = 0; i < n; i++) {
          data[i] = w.dtype === 'int32' ? buf.readInt32LE(off + 4 * i) : buf.readFloatLE(off + 4 * i);
        }
        off += n * 4;
      }
      out.set(w.name, { shape: w.shape, data });
    }
  }
  return out;
}
