/**
 * The template side of the face engine, without any image model: the model id templates carry, the
 * template codec, the 16-bit decision score and the 1:N gallery. The in-process engine
 * (face-engine.ts) and the worker-pool engine (pooled-engine.ts) share it, so both give the same
 * scores for the same templates.
 */
import type * as ort from 'onnxruntime-node';
import type { FaceGallery } from '../engine.js';
import { Int8FaceGallery } from './gallery.js';
import { quantize16, similarity16 } from './quantize.js';
import { DLIB_DIM, FUSED_DIM } from '../embed/fusion.js';
import { decodeCompatible, encodeTemplate } from './template.js';

/** Length of a template's vector: dlib 128 + MobileFaceNet 192, fused (fusion.ts). */
export const EMBEDDING_DIM = FUSED_DIM;
/** Dims scored with 16-bit codes (the dlib part, see quantize16); the rest with int8 codes. */
export const RESIDUAL_DIMS = DLIB_DIM;

/**
 * Model id written into every template (template.ts); `flip` is the test-time mirror of the chips.
 * Version 1 was dlib alone (128-d): its templates are refused as TEMPLATE_INCOMPATIBLE.
 */
export function faceModelId(flip: boolean): string {
  return `dlib-r34-128+mfn-192/lm68-chip150-arc112${flip ? '+flip' : ''}@2`;
}

export class FaceTemplateSpace {
  /**
   * @param modelId id of the model whose templates this space accepts.
   * @param matmul MatMulInteger session for large gallery scans (null: JS scan only).
   */
  constructor(
    readonly modelId: string,
    private readonly matmul: ort.InferenceSession | null,
  ) {}

  /** Encodes an L2-normalised embedding as this model's template. */
  templateOf(vector: Float32Array): Uint8Array {
    return encodeTemplate(this.modelId, vector);
  }

  /** Decodes a template of this model. Throws INVALID_TEMPLATE / TEMPLATE_INCOMPATIBLE. */
  vectorOf(template: Uint8Array): Float32Array {
    return decodeCompatible(template, this.modelId, EMBEDDING_DIM);
  }

  /** Decision score: quantised cosine in [-1, 1], 16-bit codes on the dlib dims and int8 on the rest (identical to the gallery's scores, see quantize.ts). */
  similarity(a: Uint8Array, b: Uint8Array): number {
    return this.vectorSimilarity(this.vectorOf(a), this.vectorOf(b));
  }

  /** Same as similarity on decoded vectors. */
  vectorSimilarity(a: Float32Array, b: Float32Array): number {
    return similarity16(quantize16(a, RESIDUAL_DIMS), quantize16(b, RESIDUAL_DIMS));
  }

  assertCompatible(template: Uint8Array): void {
    this.vectorOf(template);
  }

  createGallery(): FaceGallery & Int8FaceGallery {
    return new Int8FaceGallery(EMBEDDING_DIM, (t) => this.vectorOf(t), this.matmul, 1024, RESIDUAL_DIMS);
  }
}
