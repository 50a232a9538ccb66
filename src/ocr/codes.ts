/**
 * The card's short codes: the licence category (A, B, C, D, E, AB, AC, AD, AE, ACC) and the remarks
 * (restriction codes of one capital each, and EAR). A lone capital has no word around it for the
 * recogniser's language model, and these are the values it misses or misreads most ("R" for B, "Dp"
 * for D, "FARA" for EAR A). Their normalisation and checks, and what to read again when a reading fails
 * its check: the value's own box, a little wider, with the recogniser restricted to the code's alphabet
 * (second-looks.ts rereadSuspects). Pure functions.
 */
import { CATEGORY_SET, single, UFS } from './normalize.js';
import type { Phrase } from './words.js';

/** Remarks as printed: restriction codes (one letter) and EAR, space-separated. */
export const REMARK_CODES = /^(EAR|[A-Z])( (EAR|[A-Z]))*$/;

/** The letters a licence category is written with (the recogniser's whitelist for a second look). */
export const CATEGORY_ALPHABET = 'ABCDE';
/** The letters remarks are written with: restriction codes are capitals, and EAR (the recogniser's whitelist). */
export const REMARK_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * How far (in the value's heights) a code's box is widened on each side for its second look: the
 * page pass's box of a code it misread may hold only part of it ("Al" over the middle of EAR, 18 px
 * of its ~47); a code stands alone on its row, with at least 2 value heights of paper on either side.
 */
export const CODE_WIDEN = 1.5;

/**
 * Remarks as the card prints them, from a reading: a lone "À" is the recogniser's reading of "A",
 * "EARA" is EAR and a code glued by a space the recogniser missed (no code is four letters long);
 * marks with no letter ("|", "-", "1": a frame line's edge) are dropped (codes are letters).
 */
export function normalizeRemarks(s: string): string {
  return single(s.toUpperCase()).split(' ').filter((t) => /[A-ZÀ-Ý]/.test(t))
    .map((t) => (t === 'À' ? 'A' : /^EAR[A-Z]$/.test(t) ? `EAR ${t[3]}` : t)).join(' ');
}

/**
 * Whether a second look's reading is a licence category: its capitals, as read, are one (a lowercase
 * letter is the recogniser's unsure reading of a mark: "ec" for a C is not an E; "Cc" is a C).
 */
export const isCategoryReading = (text: string): boolean => CATEGORY_SET.has(text.replace(/[^A-Z]/g, ''));

/** Remark codes of more than one letter (REMARK_CODES). */
const LONG_REMARKS = ['EAR'];
/** Confidence cap of remarks holding a lone letter that begins or ends a longer code (cutRemarkCode). */
export const CUT_CODE_CAP = 0.7;

/**
 * Whether remarks (as normalizeRemarks writes them) hold a lone letter that is the first or the last
 * letter of a longer code (E or R of EAR): the recogniser loses a code's letters at either end -- its
 * last ones (final21 #49: EAR read "E" at 0.75), or its first ones where the value's box starts late or
 * a shadow or the card's edge covers them (final24 #77, #83: EAR read "R" at 0.92 and 0.9) -- and a lone E
 * is also one stroke from an F, another code (final21 #6: F read "E" at 0.92). Such a reading says a
 * code was cut there, not which one: under the low-confidence line (CUT_CODE_CAP). A letter inside the
 * code only (the A of EAR) is left: A is a code of its own, the commonest, and a reading that lost both
 * of EAR's ends is rarer than an A read whole.
 */
export const cutRemarkCode = (remarks: string): boolean =>
  remarks.split(' ').some((t) => t.length === 1 && LONG_REMARKS.some((c) => c.startsWith(t) || c.endsWith(t)));

/** Whether a reading is made of remark codes (REMARK_CODES, after normalizeRemarks). */
export const isRemarkReading = (text: string): boolean => REMARK_CODES.test(normalizeRemarks(text));

/**
 * How far (in the code's heights) a category's box is also grown above and below for its second look:
 * the page pass's box of a category it misread may be shorter than the letter ("R" boxed 14 px tall
 * for a B of 17, final8 #23); cut 22 px tall with the 30 % margin the held reading gave nothing, cut
 * 40 px tall "B" at 0.93. A category stands alone on its row, its label 1.5 label heights above.
 */
export const CODE_GROW = 0.4;

/**
 * A code's phrase widened by CODE_WIDEN of its heights on each side, for its second look; `taller`:
 * also grown CODE_GROW of its height above and below (a category).
 */
export function widenedCode(p: Phrase, taller = false): Phrase {
  const m = CODE_WIDEN * p.h, v = taller ? CODE_GROW * p.h : 0;
  return { ...p, x0: Math.max(0, p.x0 - m), x1: p.x1 + m, y0: Math.max(0, p.y0 - v), y1: p.y1 + v };
}

/**
 * Whether a reading under OBSERVAÇÕES is a place, not remarks: a word of two letters or more, a comma
 * and one of the 27 states at the end ("IARMONIA, RS", final14 #34: the place of issue printed under
 * the remarks' box, or an application form's line beside the card). Remarks are codes and EAR, never a
 * comma.
 */
export function isPlaceLine(text: string): boolean {
  const m = /[A-Za-zÀ-ÿ]{2,}\s*,\s*([A-Z]{2})[.”"']?$/.exec(single(text));
  return m !== null && UFS.has(m[1]);
}
