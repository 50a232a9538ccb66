/**
 * Biostation capture library: camera capture helpers for the kiosk and for any web page that
 * enrolls into a station. Built as a standalone ES module (`renderer/dist/capture/biostation-capture.js`).
 */
export { CaptureError, type CaptureErrorCode, MIN_HEIGHT_PX, MIN_WIDTH_PX, fileToBase64, grabBlob, grabFrame, meanLuma, startCamera, stopCamera, type Frame } from './camera.js';
export { GUIDE, assessFace, checkStill, createFaceDetector, detectWithZoomOut, measureFace, ovalOf, runFaceGuide, type DetectorInput, type FaceBox, type FaceDetector, type FaceGuideOptions, type Feedback } from './face-guide.js';
export { SHARPNESS_SIDE_PX, eyeAspectRatio, faceSharpness, laplacianVariance, yawDeg, type Point } from './face-measures.js';
export { estimateFingerQuality, type FingerQuality } from './finger-quality.js';
