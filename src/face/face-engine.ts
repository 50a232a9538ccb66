/**
 * The face engine, stage by stage: decode (image.ts) -> detect/ (TinyFaceDetector, up to three scales;
 * the dominant face) -> align/ (68 landmarks, mirror-averaged; dlib's 150x150 chip and the 112x112
 * ArcFace chip) -> embed/ (one wrapper per recogniser: dlib ResNet-34, MobileFaceNet; each optionally
 * summed with its mirrored chip's; fused into one unit vector) -> template/ (versioned template,
 * quantised scores, 1:N gallery). Quality (quality.ts) is measured on the way; tunables in tuning.ts.
 */
import type * as ort from 'onnxruntime-node';
import { FaceError } from './errors.js';
import { ARCFACE_SIZE, arcFaceTransform, CHIP_SIZE, chipTransform, LandmarkNet, type Landmarks68 } from './align/align.js';
import { iou, mergePasses, TinyFaceDetector, type Box, type Detection } from './detect/detector.js';
import { byDominance, isFramedPortrait } from './detect/dominance.js';
import type { FaceEngine, FaceExtractMode, FaceExtraction, FaceQuality } from './engine.js';
import { decodeImage, type RgbImage } from './image.js';
import { chipStats, estimatePose, interOcularPx, qualityFailures } from './quality.js';
import type { FaceEngineTuning } from './tuning.js';
import { DlibResNetEmbedder } from './embed/dlib-resnet.js';
import { fuseEmbeddings } from './embed/fusion.js';
import { MobileFaceNetEmbedder } from './embed/mobilefacenet.js';
import { faceModelId, FaceTemplateSpace } from './template/template-space.js';
import { alignedChips } from './align/warp.js';

export interface FaceEngineSessions {
  detector: ort.InferenceSession;
  landmarks: ort.InferenceSession;
  recognizer: ort.InferenceSession;
  /** MobileFaceNet, the second recogniser (fusion.ts). */
  mobileFaceNet: ort.InferenceSession;
  /** MatMulInteger graph for large galleries (optional). */
  matmul: ort.InferenceSession | null;
}

/** A face found in an image, with everything measured on it. */
export interface AnalyzedFace {
  box: Box;
  detectionScore: number;
  landmarks: Landmarks68;
  quality: FaceQuality;
  /** Fused unit vector (fusion.ts), 320 floats. */
  vector: Float32Array;
  /** Raw recogniser outputs per view (the chip, then its mirror when flip is on): dlib 128, MobileFaceNet 192 floats each. */
  rawDescriptors: { dlib: Float32Array; mobileFaceNet: Float32Array };
}

/** The whole face engine in this thread; templates and scores come from FaceTemplateSpace. */
export class OnnxFaceEngine extends FaceTemplateSpace implements FaceEngine {
  readonly defaultThreshold: number;
  readonly identifyThreshold: number;
  private readonly detector: TinyFaceDetector;
  private readonly landmarkNet: LandmarkNet;
  private readonly dlib: DlibResNetEmbedder;
  private readonly mobileFaceNet: MobileFaceNetEmbedder;

  constructor(
    private readonly sessions: FaceEngineSessions,
    readonly tuning: FaceEngineTuning,
  ) {
    super(faceModelId(tuning.flip), sessions.matmul);
    this.defaultThreshold = tuning.verifyThresholdCosine;
    this.identifyThreshold = tuning.identifyThresholdCosine;
    this.detector = new TinyFaceDetector(sessions.detector);
    this.dlib = new DlibResNetEmbedder(sessions.recognizer);
    this.mobileFaceNet = new MobileFaceNetEmbedder(sessions.mobileFaceNet);
    this.landmarkNet = new LandmarkNet(sessions.landmarks, tuning.landmarks.cropSideRatio, tuning.landmarks.passes, tuning.landmarks.mirror);
  }

  /** Decodes the image (see image.ts for the errors thrown). */
  decode(image: Uint8Array): Promise<RgbImage & { scale: number }> {
    return decodeImage(image, this.tuning.decodeLimits);
  }

  /**
   * Detects faces. The tiny detector's confidence varies a lot with the input scale, so it runs at
   * 1x and the extra scale factors of the default input side (those as tuning.extraScales says); if no
   * face is confident, the same scales on the image's luma (grey) copy, then on the image with
   * a black border (tuning.detection.borderPadFraction) (tight crops whose face touches the edges). Everything found is merged by
   * NMS, each face counting the passes that saw it.
   * @returns detections in working-image pixels, dominant first (see dominance.ts).
   */
  async detect(img: RgbImage): Promise<Detection[]> {
    const { confidentScore, borderPadFraction } = this.tuning.detection;
    const confident = (passes: Detection[][]): boolean => passes.some((ds) => ds.some((d) => d.score >= confidentScore));
    const side = this.detector.defaultInputSide(img);
    const passes: Detection[][] = [await this.detector.detect(img, side)];
    if (this.needsExtraScales(passes[0], img)) {
      for (const s of this.extraScales(side)) passes.push(await this.detector.detect(img, s));
    }
    if (!confident(passes)) {
      // A strong colour cast (old video stills, tinted light) can hide a plain frontal face from the
      // detector; its luma copy does not.
      const gray = toGray(img);
      for (const s of [side, ...this.extraScales(side)]) passes.push(await this.detector.detect(gray, s));
    }
    if (!confident(passes)) {
      const padX = Math.round(img.width * borderPadFraction);
      const padY = Math.round(img.height * borderPadFraction);
      const padded = { width: img.width + 2 * padX, height: img.height + 2 * padY, data: new Uint8Array((img.width + 2 * padX) * (img.height + 2 * padY) * 3) };
      for (let y = 0; y < img.height; y++) {
        padded.data.set(img.data.subarray(y * img.width * 3, (y + 1) * img.width * 3), ((y + padY) * padded.width + padX) * 3);
      }
      const pside = this.detector.defaultInputSide(padded);
      for (const s of [pside, ...this.extraScales(pside)]) {
        const found = await this.detector.detect(padded, s);
        passes.push(found.map((d) => ({ score: d.score, box: { ...d.box, x: d.box.x - padX, y: d.box.y - padY } })));
      }
    }
    return byDominance(mergePasses(passes, this.detector.options.iouThreshold), img.width, img.height);
  }

  private needsExtraScales(first: Detection[], img: RgbImage): boolean {
    const mode = this.tuning.extraScales;
    if (mode === 'always') return true;
    if (!first.some((d) => d.score >= this.tuning.detection.confidentScore)) return true;
    if (mode === 'if-none') return false;
    return !(first.length === 1 && isFramedPortrait(first[0], img.width, img.height));
  }

  private extraScales(side: number): number[] {
    const { extraScaleFactors, inputStridePx, minExtraInputSidePx, maxExtraInputSidePx } = this.tuning.detection;
    return extraScaleFactors.map((f) => Math.round((side * f) / inputStridePx) * inputStridePx).filter((s) => s >= minExtraInputSidePx && s <= maxExtraInputSidePx);
  }

  /** Landmarks, aligned chip, quality and embedding of one detected face (coordinates in source px). */
  async analyzeFace(img: RgbImage & { scale: number }, det: Detection): Promise<AnalyzedFace> {
    const landmarks = await this.landmarkNet.locate(img, det.box);
    const n = this.tuning.flip ? 2 : 1;
    const batch = alignedChips(img, chipTransform(landmarks), CHIP_SIZE, n);
    const dlib = await this.dlib.embed(batch, n);
    const mobileFaceNet = await this.mobileFaceNet.embed(alignedChips(img, arcFaceTransform(landmarks), ARCFACE_SIZE, n), n);
    const vector = fuseEmbeddings(dlib, mobileFaceNet, n);

    const s = 1 / img.scale;
    const srcLandmarks = new Float32Array(landmarks.length);
    for (let i = 0; i < landmarks.length; i++) srcLandmarks[i] = (landmarks[i] + 0.5) * s - 0.5;
    const { sharpness, meanLuma } = chipStats(batch, CHIP_SIZE);
    const pose = estimatePose(landmarks);
    const box = { x: det.box.x * s, y: det.box.y * s, width: det.box.width * s, height: det.box.height * s };
    return {
      box,
      detectionScore: det.score,
      landmarks: srcLandmarks,
      vector,
      rawDescriptors: { dlib, mobileFaceNet },
      quality: {
        interOcularPx: interOcularPx(srcLandmarks),
        faceWidthPx: box.width,
        sharpness,
        yawDeg: pose.yawDeg,
        pitchDeg: pose.pitchDeg,
        rollDeg: pose.rollDeg,
        meanLuma,
        detectionScore: det.score,
      },
    };
  }

  /**
   * Every face of an image, dominant first, each fully analysed (group photos, kiosk feedback).
   * @throws FaceError INVALID_IMAGE, IMAGE_TOO_LARGE, IMAGE_TOO_SMALL.
   */
  async analyzeAll(image: Uint8Array, maxFaces = 20): Promise<AnalyzedFace[]> {
    const img = await this.decode(image);
    const dets = (await this.detect(img)).slice(0, maxFaces);
    const faces: AnalyzedFace[] = [];
    for (const d of dets) faces.push(await this.analyzeFace(img, d));
    return faces;
  }

  /**
   * Dominant face of an image (dominance.ts: large, whole, centred, confident).
   * @throws FaceError INVALID_IMAGE, IMAGE_TOO_LARGE, IMAGE_TOO_SMALL, NO_FACE;
   *   in enroll mode also MULTIPLE_FACES and FACE_QUALITY_TOO_LOW (details.failures lists the limits failed).
   */
  async analyzeDominant(image: Uint8Array, mode: FaceExtractMode): Promise<AnalyzedFace> {
    const img = await this.decode(image);
    const dets = await this.detect(img);
    if (dets.length === 0) throw new FaceError('NO_FACE');
    const main = dets[0];
    if (mode === 'enroll') {
      const rivals = dets.slice(1).filter((d) => {
        const cx = d.box.x + d.box.width / 2;
        const cy = d.box.y + d.box.height / 2;
        const inside = cx > main.box.x && cx < main.box.x + main.box.width && cy > main.box.y && cy < main.box.y + main.box.height;
        // A box overlapping the dominant one is a second guess at the same face, not another person.
        return !inside && iou(d.box, main.box) < this.tuning.detection.rivalMaxIou && d.score >= this.tuning.qualityLimits.minDetectionScore && d.box.width >= this.tuning.multipleFaceWidthRatio * main.box.width;
      });
      if (rivals.length > 0) {
        throw new FaceError('MULTIPLE_FACES', `${rivals.length + 1} faces of similar size were found`, { faces: rivals.length + 1 });
      }
    }
    const face = await this.analyzeFace(img, main);
    if (mode === 'enroll') {
      const failures = qualityFailures(face.quality, this.tuning.qualityLimits);
      if (failures.length > 0) {
        throw new FaceError('FACE_QUALITY_TOO_LOW', `Face quality too low: ${failures.join(', ')}`, { failures, quality: face.quality });
      }
    }
    return face;
  }

  async extract(image: Uint8Array, mode: FaceExtractMode): Promise<FaceExtraction> {
    const face = await this.analyzeDominant(image, mode);
    return { template: this.templateOf(face.vector), quality: face.quality, box: face.box };
  }
}

/** Luma copy (BT.601 weights) of an RGB raster, replicated into the three channels. */
function toGray(img: RgbImage): RgbImage {
  const src = img.data;
  const data = new Uint8Array(src.length);
  for (let p = 0; p < src.length; p += 3) {
    const y = Math.round(0.299 * src[p] + 0.587 * src[p + 1] + 0.114 * src[p + 2]);
    data[p] = y;
    data[p + 1] = y;
    data[p + 2] = y;
  }
  return { width: img.width, height: img.height, data };
}
