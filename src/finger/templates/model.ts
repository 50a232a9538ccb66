/** Minutia type in the interchange formats' terms. */
export type MinutiaType = 'ending' | 'bifurcation' | 'other';

/**
 * One minutia. `x`, `y` in pixels of the template's frame (`resolutionDpi`); `direction` in radians
 * in image coordinates (x right, y down, angle measured from +x towards +y), pointing from the minutia
 * along the ridge (ending) or valley (bifurcation) it ends, as ISO 19794-2 and SourceAFIS orient it; `quality` 0..100 (0 = not reported).
 */
export interface Minutia {
  x: number;
  y: number;
  direction: number;
  type: MinutiaType;
  quality: number;
}

/** One finger view (impression) of a record. */
export interface FingerView {
  fingerPosition: number;
  viewNumber: number;
  impressionType: number;
  fingerQuality: number;
  minutiae: Minutia[];
  /** Extended data block bytes kept verbatim (may be empty). */
  extendedData: Uint8Array;
  /** ISO 19794-2:2011 representation fields kept for byte-identical round trips. */
  iso2011?: Iso2011Extras;
}

/** Fields of an ISO 19794-2:2011 finger representation that the other formats lack. */
export interface Iso2011Extras {
  /** 9 bytes: year(2) month day hour minute second millisecond(2); all 0xFF = not given. */
  captureDateTime: Uint8Array;
  deviceTechnology: number;
  deviceVendor: number;
  deviceType: number;
  /** Raw quality blocks (5 bytes each) and certification blocks (3 bytes each). */
  qualityBlocks: Uint8Array;
  certificationBlocks: Uint8Array;
  /** 5 (no minutia quality) or 6 bytes per minutia. */
  minutiaFieldLength: number;
  ridgeEndingType: number;
  width: number;
  height: number;
  xResolutionPpcm: number;
  yResolutionPpcm: number;
}

/** Format-neutral content of a finger minutiae record (ISO 19794-2 2005/2011, ANSI 378-2004). */
export interface FingerTemplate {
  width: number;
  height: number;
  /** Resolution in pixels per centimetre, as the formats store it (197 = 500 dpi). */
  xResolutionPpcm: number;
  yResolutionPpcm: number;
  views: FingerView[];
  /** Capture equipment id/compliance (2005/ANSI), CBEFF product id (ANSI): kept for round trips. */
  captureEquipment?: number;
  cbeffProductId?: number;
  /** ISO 19794-2:2011 certification flag. */
  certificationFlag?: number;
}

export const PPCM_500_DPI = 197;
