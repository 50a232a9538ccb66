/**
 * dlib's ResNet-34 metric network (face-api.js FaceRecognitionNet, models/build/face_recognition_dlib_r34.onnx):
 * 150x150 chips aligned as dlib's get_face_chip_details (align/align.ts `chipTransform`), planar RGB 0..255
 * as the ONNX graph takes them (its mean subtraction and scaling are inside the graph) -> 128 floats per view.
 */
import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { CHIP_SIZE } from '../align/align.js';

export const DLIB_INPUT_SIDE_PX = CHIP_SIZE;

export class DlibResNetEmbedder {
  constructor(private readonly session: ort.InferenceSession) {}

  /**
   * @param chips `views` planar RGB chips, [views, 3, 150, 150], 0..255 (not modified).
   * @returns raw descriptors, views x 128 floats (not normalised).
   */
  async embed(chips: Float32Array, views: number): Promise<Float32Array> {
    const out = await this.session.run({ input: new Tensor('float32', chips, [views, 3, DLIB_INPUT_SIDE_PX, DLIB_INPUT_SIDE_PX]) });
    return (out.descriptor.data as Float32Array).slice();
  }
}
