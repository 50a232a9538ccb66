/** The station's enrollment quality limits (src/face/quality.ts `qualityFailures`), as its FACE_QUALITY_TOO_LOW detail names them. */
export const QUALITY_LIMITS = ['interOcularPx', 'sharpness', 'yawDeg', 'pitchDeg', 'rollDeg', 'meanLuma', 'detectionScore'] as const;
export type QualityLimit = (typeof QUALITY_LIMITS)[number];

/**
 * The limits a FACE_QUALITY_TOO_LOW detail names ("Face quality too low: sharpness, yawDeg"), in the
 * station's order; empty when it names none (the kiosk then shows the code's general message).
 */
export function qualityFailuresOf(detail: string): QualityLimit[] {
  const listed = new Set((detail.split(':')[1] ?? '').split(',').map((s) => s.trim()));
  return QUALITY_LIMITS.filter((l) => listed.has(l));
}
