/**
 * Biostation capture library, advanced-liveness build: everything of renderer/capture/index.ts plus
 * `captureLiveness`. Built as one standalone ES module, served by the station at
 * /capture/biostation-capture.js (renderer/capture/liveness/vite.config.ts).
 */
export * from '../index.js';
export { captureLiveness, checkRequirements, LivenessCaptureError, LIBRARY_VERSION, type CaptureLivenessOptions, type LivenessCaptureErrorCode } from './capture.js';
export type { LivenessFeedback, FeedbackCode, Locale } from './ui.js';
export type { CaptureMetadata } from './metadata.js';
export { FORMAT_VERSION } from './payload.js';
export { livenessAdvice } from './advice.js';
