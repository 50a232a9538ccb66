/**
 * Face detection with face-api.js's TinyFaceDetector (Tiny-YOLOv2, separable convolutions,
 * 5 anchors) converted to ONNX. Box decoding and non-maximum suppression follow face-api's
 * TinyYolov2Base.extractBoxes / nonMaxSuppression.
 */
import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import type { RgbImage } from '../image.js';
import { warpAffine } from '../align/warp.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Detection {
  box: Box;
  /** Objectness after sigmoid, 0..1. */
  score: number;
  /** Detector passes (scales, variants) that found this face (IoU above the NMS threshold); 1 when unknown. */
  support?: number;
}

/** Anchor sizes in grid cells (32 px), from face-api tinyFaceDetector/const.ts. */
const ANCHORS: Array<[number, number]> = [
  [1.603231, 2.094468],
  [6.041143, 7.080126],
  [2.882459, 3.518061],
  [4.266906, 5.178857],
  [9.041765, 10.66308],
];

export interface DetectorOptions {
  /** Longest side of the network input, px (multiple of 32); smaller images are not upscaled beyond it. */
  maxInputSidePx: number;
  minInputSidePx: number;
  /** Minimum objectness kept. */
  scoreThreshold: number;
  /** IoU above which the lower-scored box is suppressed. */
  iouThreshold: number;
}

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = {
  maxInputSidePx: 608,
  minInputSidePx: 160,
  scoreThreshold: 0.3,
  iouThreshold: 0.4,
};

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

export function iou(a: Box, b: Box): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** Greedy non-maximum suppression, best score first. */
export function nms(dets: Detection[], iouThreshold: number): Detection[] {
  const sorted = [...dets].sort((p, q) => q.score - p.score);
  const kept: Detection[] = [];
  for (const d of sorted) if (kept.every((k) => iou(k.box, d.box) <= iouThreshold)) kept.push(d);
  return kept;
}

/**
 * NMS over the detections of several passes (each already NMS'd), recording on each kept face how
 * many passes found it: a face seen at one scale only is more often a spurious box.
 */
export function mergePasses(passes: Detection[][], iouThreshold: number): Detection[] {
  const all = passes.flat();
  return nms(all, iouThreshold).map((k) => ({
    ...k,
    support: passes.filter((pass) => pass.some((d) => iou(k.box, d.box) > iouThreshold)).length,
  }));
}

export class TinyFaceDetector {
  constructor(
    private readonly session: ort.InferenceSession,
    readonly options: DetectorOptions = DEFAULT_DETECTOR_OPTIONS,
  ) {}

  /**
   * Detects faces.
   * @returns detections in source pixel coordinates, best score first, after NMS.
   */
  async detect(img: RgbImage, inputSidePx?: number): Promise<Detection[]> {
    const { maxInputSidePx, minInputSidePx } = this.options;
    const longest = Math.max(img.width, img.height);
    const target = inputSidePx ?? Math.min(maxInputSidePx, Math.max(minInputSidePx, Math.ceil(longest / 32) * 32));
    const scale = target / longest; // input px per source px
    const inW = Math.ceil((img.width * scale) / 32) * 32;
    const inH = Math.ceil((img.height * scale) / 32) * 32;
    const input = warpAffine(img, [1 / scale, 0, 0.5 / scale - 0.5, 0, 1 / scale, 0.5 / scale - 0.5], inW, inH);
    const out = await this.session.run({ input: new Tensor('float32', input, [1, 3, inH, inW]) });
    const t = out.boxes;
    const [, , gh, gw] = t.dims as number[];
    const data = t.data as Float32Array;
    const plane = gh * gw;
    const raw: Detection[] = [];
    for (let row = 0; row < gh; row++) {
      for (let col = 0; col < gw; col++) {
        const cell = row * gw + col;
        for (let a = 0; a < ANCHORS.length; a++) {
          const base = a * 5 * plane + cell;
          const score = sigmoid(data[base + 4 * plane]);
          if (score < this.options.scoreThreshold) continue;
          const cx = (col + sigmoid(data[base])) * 32;
          const cy = (row + sigmoid(data[base + plane])) * 32;
          const w = Math.exp(data[base + 2 * plane]) * ANCHORS[a][0] * 32;
          const h = Math.exp(data[base + 3 * plane]) * ANCHORS[a][1] * 32;
          raw.push({ score, box: { x: (cx - w / 2) / scale, y: (cy - h / 2) / scale, width: w / scale, height: h / scale } });
        }
      }
    }
    return nms(raw, this.options.iouThreshold);
  }

  /** The default input side for an image (px, multiple of 32). */
  defaultInputSide(img: RgbImage): number {
    const longest = Math.max(img.width, img.height);
    return Math.min(this.options.maxInputSidePx, Math.max(this.options.minInputSidePx, Math.ceil(longest / 32) * 32));
  }
}
