/**
 * ONNX graphs for the three face-api.js networks we use, written from their published
 * TF.js architectures (@vladmandic/face-api src/: faceRecognitionNet, faceLandmarkNet +
 * faceFeatureExtractor, tinyFaceDetector + tinyYolov2). Inputs are NCHW float32 RGB in 0..255;
 * the per-model normalisation is part of the graph.
 */
import { GraphBuilder } from './graph-builder.js';
import type { WeightTensor } from './tfjs-weights.js';

const FACE_MEAN_RGB = [122.782, 117.001, 104.298];
const TINY_MEAN_RGB = [117.001, 114.697, 97.404];

/**
 * dlib ResNet-34 face recogniser (face-api FaceRecognitionNet): [N,3,150,150] -> [N,128].
 * Conv + bias + dlib affine ("scale") layers are folded into one Conv.
 */
export function buildRecognizer(weights: Map<string, WeightTensor>): Uint8Array {
  const g = new GraphBuilder(weights);
  const convLayer = (x: string, prefix: string, stride: number, padding: 'same' | 'valid', relu: boolean): string => {
    const y = g.conv(x, g.get(`${prefix}/conv/filters`), g.get(`${prefix}/conv/bias`).data, stride, padding, {
      scale: g.get(`${prefix}/scale/weights`).data,
      shift: g.get(`${prefix}/scale/biases`).data,
    });
    return relu ? g.op('Relu', [y]) : y;
  };
  const channels = (prefix: string): number => g.get(`${prefix}/conv/filters`).shape[3];
  let size = 150;
  let ch = 3;
  const residual = (x: string, prefix: string): string => {
    const a = convLayer(x, `${prefix}/conv1`, 1, 'same', true);
    const b = convLayer(a, `${prefix}/conv2`, 1, 'same', false);
    return g.op('Relu', [g.op('Add', [b, x])]);
  };
  const residualDown = (x: string, prefix: string): string => {
    const a = convLayer(x, `${prefix}/conv1`, 2, 'valid', true);
    let b = convLayer(a, `${prefix}/conv2`, 1, 'same', false);
    const outSize = Math.floor((size - 3) / 2) + 1;
    const poolSize = Math.floor((size - 2) / 2) + 1;
    const outCh = channels(`${prefix}/conv2`);
    let pooled = g.pool('AveragePool', x, 2, 2, 'valid');
    if (outSize !== poolSize) {
      // face-api appends a zero row and column to the conv branch.
      b = g.op('Pad', [b, g.constInt64('pads', [0, 0, 0, 0, 0, 0, poolSize - outSize, poolSize - outSize])]);
    }
    if (outCh !== ch) {
      pooled = g.op('Pad', [pooled, g.constInt64('pads', [0, 0, 0, 0, 0, outCh - ch, 0, 0])]);
    }
    size = poolSize;
    ch = outCh;
    return g.op('Relu', [g.op('Add', [pooled, b])]);
  };

  let x = g.normalize('input', FACE_MEAN_RGB, 255);
  x = convLayer(x, 'conv32_down', 2, 'valid', true);
  size = Math.floor((size - 7) / 2) + 1;
  ch = 32;
  x = g.pool('MaxPool', x, 3, 2, 'valid');
  size = Math.floor((size - 3) / 2) + 1;
  for (const p of ['conv32_1', 'conv32_2', 'conv32_3']) x = residual(x, p);
  x = residualDown(x, 'conv64_down');
  for (const p of ['conv64_1', 'conv64_2', 'conv64_3']) x = residual(x, p);
  x = residualDown(x, 'conv128_down');
  for (const p of ['conv128_1', 'conv128_2']) x = residual(x, p);
  x = residualDown(x, 'conv256_down');
  for (const p of ['conv256_1', 'conv256_2']) x = residual(x, p);
  x = residualDown(x, 'conv256_down_out');
  const avg = g.op('ReduceMean', [x], { axes: [2, 3], keepdims: 0 });
  const fc = g.get('fc');
  const desc = g.op('MatMul', [avg, g.constFloat('fc', fc.shape, fc.data)]);
  return g.encode({
    name: 'dlib_resnet34_face_descriptor',
    input: { name: 'input', shape: ['N', 3, 150, 150] },
    outputs: [{ from: desc, name: 'descriptor', shape: ['N', 128] }],
    doc: 'dlib ResNet-34 face descriptor (face-api.js weights). Input RGB 0..255 NCHW 150x150 face chip.',
  });
}

/** face-api FaceLandmark68Net: [N,3,112,112] -> [N,136] (x0,y0,x1,y1,... relative 0..1 of the crop). */
export function buildLandmarks68(weights: Map<string, WeightTensor>): Uint8Array {
  const g = new GraphBuilder(weights);
  const denseBlock4 = (x: string, prefix: string, first: boolean): string => {
    const out1 = g.op('Relu', [
      first
        ? g.conv(x, g.get(`${prefix}/conv0/filters`), g.get(`${prefix}/conv0/bias`).data, 2, 'same')
        : g.separableConv(x, `${prefix}/conv0`, 2, 'same'),
    ]);
    const out2 = g.separableConv(out1, `${prefix}/conv1`, 1, 'same');
    const in3 = g.op('Relu', [g.op('Add', [out1, out2])]);
    const out3 = g.separableConv(in3, `${prefix}/conv2`, 1, 'same');
    const s23 = g.op('Add', [out2, out3]);
    const in4 = g.op('Relu', [g.op('Add', [out1, s23])]);
    const out4 = g.separableConv(in4, `${prefix}/conv3`, 1, 'same');
    return g.op('Relu', [g.op('Add', [out1, g.op('Add', [out2, g.op('Add', [out3, out4])])])]);
  };
  let x = g.normalize('input', FACE_MEAN_RGB, 255);
  x = denseBlock4(x, 'dense0', true);
  x = denseBlock4(x, 'dense1', false);
  x = denseBlock4(x, 'dense2', false);
  x = denseBlock4(x, 'dense3', false);
  x = g.pool('AveragePool', x, 7, 2, 'valid');
  const flat = g.op('Flatten', [x], { axis: 1 });
  const w = g.get('fc/weights');
  const b = g.get('fc/bias');
  const y = g.op('Add', [g.op('MatMul', [flat, g.constFloat('fcW', w.shape, w.data)]), g.constFloat('fcB', b.shape, b.data)]);
  return g.encode({
    name: 'face_landmark_68',
    input: { name: 'input', shape: ['N', 3, 112, 112] },
    outputs: [{ from: y, name: 'landmarks', shape: ['N', 136] }],
    doc: 'face-api.js 68-point landmark net. Input RGB 0..255 NCHW 112x112 face crop; output relative (x,y) pairs.',
  });
}

/**
 * face-api TinyFaceDetector (Tiny-YOLOv2 with separable convs): [1,3,H,W] (H,W multiples of 32)
 * -> [1,25,H/32,W/32] raw box encodings, channel = anchor*5 + (tx,ty,tw,th,objectness).
 */
export function buildTinyFaceDetector(weights: Map<string, WeightTensor>): Uint8Array {
  const g = new GraphBuilder(weights);
  const leaky = (x: string): string => g.op('LeakyRelu', [x], { alpha: { float: 0.10000000149011612 } });
  let x = g.normalize('input', TINY_MEAN_RGB, 255);
  x = leaky(g.conv(x, g.get('conv0/filters'), g.get('conv0/bias').data, 1, 'valid'));
  x = g.pool('MaxPool', x, 2, 2, 'same');
  for (let i = 1; i <= 5; i++) {
    x = leaky(g.separableConv(x, `conv${i}`, 1, [1, 1, 1, 1]));
    x = g.pool('MaxPool', x, 2, i === 5 ? 1 : 2, 'same');
  }
  const y = g.conv(x, g.get('conv8/filters'), g.get('conv8/bias').data, 1, 'valid');
  return g.encode({
    name: 'tiny_face_detector',
    input: { name: 'input', shape: ['N', 3, 'H', 'W'] },
    outputs: [{ from: y, name: 'boxes', shape: ['N', 25, 'GH', 'GW'] }],
    doc: 'face-api.js TinyFaceDetector. Input RGB 0..255 NCHW; output YOLO cells, 5 anchors x (tx,ty,tw,th,obj).',
  });
}
