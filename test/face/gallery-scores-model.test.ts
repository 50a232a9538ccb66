/** The gallery's MatMulInteger graph, kept as bytes in the engine, is what the ONNX writer of models/ encodes. */
import { describe, expect, it } from 'vitest';
import { encodeModel } from '../../models/onnx-proto.js';
import { GALLERY_SCORES_MODEL } from '../../src/face/template/gallery-scores-model.js';

describe('gallery scores model', () => {
  it('equals the encoded MatMulInteger graph', () => {
    const encoded = encodeModel({
      graphName: 'gallery_scores',
      opset: 13,
      producer: 'biostation',
      initializers: [],
      nodes: [{ opType: 'MatMulInteger', inputs: ['A', 'B'], outputs: ['Y'], name: 'scores' }],
      inputs: [
        { name: 'A', elemType: 3, shape: ['N', 'D'] },
        { name: 'B', elemType: 3, shape: ['D', 'M'] },
      ],
      outputs: [{ name: 'Y', elemType: 6, shape: ['N', 'M'] }],
    });
    expect(Buffer.from(GALLERY_SCORES_MODEL).equals(Buffer.from(encoded))).toBe(true);
  });
});
