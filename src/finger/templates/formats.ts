import { invalidTemplate } from './byte-io.js';
import { parseAnsi378, writeAnsi378 } from './ansi378.js';
import { parseIso2005, writeIso2005 } from './iso2005.js';
import { parseIso2011, writeIso2011 } from './iso2011.js';
import { PPCM_500_DPI, type FingerTemplate, type Minutia } from './model.js';

export type TemplateFormat = 'iso-19794-2-2005' | 'iso-19794-2-2011' | 'ansi-378-2004';

/**
 * Detects the format of a finger minutiae record from its identifier and version, and for the two
 * " 20" formats from the length field: ISO 2005 has a 4-byte length at offset 8 (its first two bytes
 * are 0 for records under 64 KiB), ANSI 378-2004 a 2-byte one (non-zero, or 0 then a 4-byte length
 * of at least 64 KiB). Throws INVALID_TEMPLATE for anything else.
 */
export function detectFormat(bytes: Uint8Array): TemplateFormat {
  if (!bytes || bytes.length < 12) invalidTemplate('Template shorter than a minutiae record header (12 bytes)');
  if (bytes[0] !== 0x46 || bytes[1] !== 0x4d || bytes[2] !== 0x52 || bytes[3] !== 0) invalidTemplate('Not a finger minutiae record (identifier is not "FMR\\0")');
  const version = String.fromCharCode(bytes[4], bytes[5], bytes[6]);
  if (version === '030' && bytes[7] === 0) return 'iso-19794-2-2011';
  if (version !== ' 20' || bytes[7] !== 0) invalidTemplate(`Unsupported minutiae record version "${version.trim()}"`);
  const short = (bytes[8] << 8) | bytes[9];
  if (short !== 0) return 'ansi-378-2004';
  const extended = ((bytes[10] << 24) >>> 0) + (bytes[11] << 16) + ((bytes[12] ?? 0) << 8) + (bytes[13] ?? 0);
  if (extended >= 0x10000 && extended <= bytes.length) return 'ansi-378-2004';
  return 'iso-19794-2-2005';
}

/** Parses any supported record (format auto-detected). Throws INVALID_TEMPLATE. */
export function parseTemplate(bytes: Uint8Array): { format: TemplateFormat; template: FingerTemplate } {
  const format = detectFormat(bytes);
  const template = format === 'iso-19794-2-2011' ? parseIso2011(bytes) : format === 'ansi-378-2004' ? parseAnsi378(bytes) : parseIso2005(bytes);
  return { format, template };
}

/** Writes a template in the given format. */
export function writeTemplate(template: FingerTemplate, format: TemplateFormat): Uint8Array {
  return format === 'iso-19794-2-2011' ? writeIso2011(template) : format === 'ansi-378-2004' ? writeAnsi378(template) : writeIso2005(template);
}

/**
 * Minutiae of one view converted to the internal 500 dpi frame (pixels), using the record's x/y
 * resolutions (pixels per cm; 0 is read as 500 dpi). Directions are already in internal radians.
 */
export function minutiaeAt500Dpi(template: FingerTemplate, viewIndex = 0): Minutia[] {
  const view = template.views[viewIndex];
  if (!view) invalidTemplate(`Template has no finger view ${viewIndex}`);
  const fx = PPCM_500_DPI / (template.xResolutionPpcm || PPCM_500_DPI);
  const fy = PPCM_500_DPI / (template.yResolutionPpcm || PPCM_500_DPI);
  return view.minutiae.map((m) => ({ ...m, x: m.x * fx, y: m.y * fy }));
}
