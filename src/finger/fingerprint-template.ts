import { Parameters } from './parameters.js';
import type { ExtractedFeatures } from './extractor/feature-extractor.js';
import { prepareTemplate, type PreparedTemplate } from './matcher/prepared-template.js';
import { minutiaeAt500Dpi, parseTemplate, type TemplateFormat } from './templates/formats.js';
import { writeIso2005 } from './templates/iso2005.js';
import { PPCM_500_DPI, type FingerTemplate } from './templates/model.js';
import { invalidTemplate } from './templates/byte-io.js';

/**
 * Our stored template: a plain ISO/IEC 19794-2:2005 record, one finger view, 500 dpi (197 px/cm),
 * coordinates in the 500 dpi frame of the (rescaled) image, finger quality = image quality 0..100.
 * No proprietary extension: matching needs only the minutiae.
 */
export function toStoredTemplate(features: ExtractedFeatures): Uint8Array {
  const template: FingerTemplate = {
    width: features.width,
    height: features.height,
    xResolutionPpcm: PPCM_500_DPI,
    yResolutionPpcm: PPCM_500_DPI,
    captureEquipment: 0,
    views: [
      {
        fingerPosition: 0,
        viewNumber: 0,
        impressionType: 0,
        fingerQuality: features.quality,
        minutiae: features.minutiae,
        extendedData: new Uint8Array(0),
      },
    ],
  };
  return writeIso2005(template);
}

/** A parsed record ready for matching: one prepared template per finger view. */
export interface PreparedRecord {
  format: TemplateFormat;
  views: PreparedTemplate[];
}

/**
 * Parses any supported record (ISO 2005/2011, ANSI 378-2004; format detected) and prepares every
 * finger view for matching at 500 dpi. `frame` optionally rescales coordinates from a capture frame
 * (e.g. SecuGen's 300x400) to a target size in 500 dpi pixels.
 * Throws FingerError INVALID_TEMPLATE (unparsable record, or no view with minutiae).
 */
export function prepareRecord(bytes: Uint8Array, frame?: { scaleX: number; scaleY: number }): PreparedRecord {
  const { format, template } = parseTemplate(bytes);
  if (template.views.length === 0) invalidTemplate('Template holds no finger view');
  const views = template.views.map((_, i) => {
    let minutiae = minutiaeAt500Dpi(template, i);
    if (frame) minutiae = minutiae.map((m) => ({ ...m, x: m.x * frame.scaleX, y: m.y * frame.scaleY }));
    if (minutiae.length > Parameters.maxMinutiae * 3) minutiae = minutiae.slice(0, Parameters.maxMinutiae * 3);
    return prepareTemplate(minutiae);
  });
  return { format, views };
}
