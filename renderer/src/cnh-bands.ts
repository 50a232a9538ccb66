/** The spec's OCR confidence bands: >= 0.9 very high, >= 0.8 high, >= 0.7 medium (check it), else low (validate by hand). */
export type ConfidenceBand = 'veryHigh' | 'high' | 'medium' | 'low';

/** Band of a confidence in 0..1. */
export function confidenceBand(c: number): ConfidenceBand {
  return c >= 0.9 ? 'veryHigh' : c >= 0.8 ? 'high' : c >= 0.7 ? 'medium' : 'low';
}
