/**
 * The ONNX graph the gallery runs for large 1:N scans (gallery.ts): one MatMulInteger node,
 * `Y[N,M] (int32) = A[N,D] (int8) x B[D,M] (int8)`, opset 13, 144 bytes. Kept as bytes so that the
 * engine needs no ONNX writer at run time; test/face/gallery-scores-model.test.ts checks that they are
 * exactly what models/onnx-proto.ts encodes for this graph.
 */
export const GALLERY_SCORES_MODEL: Uint8Array = Uint8Array.from(
  Buffer.from(
    'CAgSCmJpb3N0YXRpb24aATE6dwogCgFBCgFCEgFZGgZzY29yZXMiDU1hdE11bEludGVnZXISDmdhbGxlcnlfc2NvcmVzWhUKAUESEAoOCAMSCgoDEgFOCgMSAURaFQoBQhIQCg4IAxIKCgMSAUQKAxIBTWIVCgFZEhAKDggGEgoKAxIBTgoDEgFNQgQKABAN',
    'base64',
  ),
);
