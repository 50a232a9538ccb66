/**
 * A tilde told from a roof (circumflex) and from a flat bar (macron) by its gray levels, over any capital
 * (issue #17, twenty-fifth round). The Portuguese model writes a tilde only over A and O (Ã Õ) and a roof
 * over A, E and O: Guarani names carry a tilde over E, I, U and Y (ARAJẼ, TẼMBIÚ, KUARAHỸ, KURUSŨ), and the
 * recogniser reads such a letter with a roof or plain, sure of it (final23: "ARAJÊ" 0.81-0.88, "TÊMBIU"
 * 0.907, "KUARAHY" 0.833). glyph-accent.ts markShape names a tilde from the thresholded pixels only over
 * letters 18 px high or more, and a 2-row tilde's threshold reads level there (glyph-marks.ts markClass
 * then calls it a macron: "TAJĒ"). The shape asked for here is the one every face draws a tilde with:
 * a wave, one rise and one fall, its two humps on either side of its middle (the columns' ink centres
 * follow sin(2 pi u) across the mark), where a roof has one peak in its middle (1 - |2u - 1|) and a macron
 * no rise at all. Correlated with the two, the templates are orthogonal (a roof's symmetric profile has
 * no share of the wave's odd one), so whatever the face, a wave and a roof fall on opposite sides.
 * Measured on words drawn in the seven card faces (test/ocr/drawn-word.ts CARD_FACES) at 22, 24 and 28 px
 * (capitals 15-21 px), clean, blurred 0.8 px at JPEG 40 and 1.2 px at JPEG 60 (63 drawings each):
 * tildes over E and Y (ARAJẼ, KUARAHỸ) wave fit 0.43-0.99, roofs over E (ARAJÊ) at most 0.39 with roof fits
 * 0.82-1.00; macrons (MĀRA, ĒRIKS, LĪGA, ŪDRIS) any fit (a flat profile's correlation is noise) but a wave
 * amplitude (the centres' regression on the wave, px) of at most 0.19, tildes' mostly 0.1-0.8. With the
 * straight line taken out, WAVE_MIN_SHARE and WAVE_MAX_LINE (graves at 30-34 px in Liberation Mono and Sans
 * passed before them), over 126 drawings a word at 20-34 px: tildes taken 88-98 of 126 (ARAJẼ, KUARAHỸ,
 * KURUSŨ, JOÃO, SIMÕES); no blob of ARAJÊ, ÂNGELO, JOSÉ, MARIÈME, YOLÈNE, ÀGUEDA, MĀRA, VANĚK, GLYNDŴR.
 * Pure functions on a gray page.
 */
import { correlation, inkCentres, type Blob, type Gray } from './glyph-i.js';

/** A tilde's columns fit the wave at least this well (Pearson correlation; roofs measured <= 0.39)... */
export const WAVE_MIN_FIT = 0.5;
/** ...at least this much better than the roof... */
export const WAVE_MARGIN = 0.3;
/** ...and its centres swing at least this many pixels each way (macrons measured <= 0.19). */
export const WAVE_MIN_SWING = 0.22;
/** A tilde is at least this many pixels wide and this many times as wide as tall (an acute is narrow)... */
const WAVE_MIN_WIDTH = 5;
/**
 * ...at least this share of its letters' height wide (tildes drawn 0.37-0.5; graves 0.22-0.32: Liberation
 * Mono's grave at 30-34 px, a 6 x 4 px stroke whose curve is left a wave once its line is taken out)...
 */
const WAVE_MIN_SHARE = 0.35;
/** ...and its raw profile is no straight line (graves drawn fit one 0.97-1.00; tildes at most 0.91). */
const WAVE_MAX_LINE = 0.93;
const WAVE_MIN_ASPECT = 1.4;

/** How a blob's gray-weighted column centres fit a wave and a roof, and the wave's swing (px). */
export interface WaveFit { wave: number; roof: number; swing: number; line: number; lift: number }

/**
 * The profile of a blob `m` on page `g`: each of its columns' ink centre (rows counted upwards, weighed by
 * how much darker than the box's paper each pixel is, less 20 levels, over the blob's box grown 1 px up and
 * down), fitted to the wave sin(2 pi u) and the roof 1 - |2u - 1| across the blob (u from 0 to 1), each
 * series first less its straight line (a stroke's slant is no wave), and the wave's swing (the centres'
 * regression coefficient on the wave, px), how well the raw profile fits a straight line (`line`,
 * Pearson: +-1 for a single stroke), and how far its middle stands over that line (`lift`: the centres'
 * regression coefficient on the roof, px; a roof's 0.5-2.2, a level bar's about 0). Zeros under 4 columns
 * with ink.
 */
export function waveFit(g: Gray, m: Pick<Blob, 'x0' | 'y0' | 'x1' | 'y1'>): WaveFit {
  const n = m.x1 - m.x0 + 1, centres = inkCentres(g, m);
  // Heights upwards (the row negated), at u from 0 to 1 across the blob.
  const cs = centres.map((p) => -p.c), us = centres.map((p) => (n === 1 ? 0.5 : (p.x - m.x0) / (n - 1)));
  if (cs.length < 4) return { wave: 0, roof: 0, swing: 0, line: 0, lift: 0 };
  // Each series less its straight line across the mark: a single stroke (an acute, a grave) is a line and
  // leaves nothing, where its raw profile half fits the wave (a falling line correlates 0.78 with it).
  const c = detrended(cs, us), wave = detrended(us.map((u) => Math.sin(2 * Math.PI * u)), us), roof = detrended(us.map((u) => 1 - Math.abs(2 * u - 1)), us);
  let cw = 0, ww = 0, cr = 0, rr = 0;
  for (let k = 0; k < c.length; k++) { cw += c[k] * wave[k]; ww += wave[k] ** 2; cr += c[k] * roof[k]; rr += roof[k] ** 2; }
  return { wave: correlation(c, wave), roof: correlation(c, roof), swing: ww ? cw / ww : 0, line: correlation(cs, us), lift: rr ? cr / rr : 0 };
}

/** A series `v` over positions `u` less its least-squares straight line (mean 0, no slope left). */
function detrended(v: number[], u: number[]): number[] {
  const n = v.length, mu = u.reduce((s, x) => s + x, 0) / n, mv = v.reduce((s, x) => s + x, 0) / n;
  let uv = 0, uu = 0;
  for (let k = 0; k < n; k++) { uv += (u[k] - mu) * (v[k] - mv); uu += (u[k] - mu) ** 2; }
  const b = uu ? uv / uu : 0;
  return v.map((x, k) => x - mv - b * (u[k] - mu));
}

/**
 * Whether one blob `m` over capitals `letterH` px high is a tilde by its gray levels: at least
 * WAVE_MIN_WIDTH px, WAVE_MIN_SHARE of the height and WAVE_MIN_ASPECT times as wide as tall, its raw
 * profile no straight line (WAVE_MAX_LINE), at most 0.32 of the height tall and 0.65
 * wide (glyph-accent.ts's mark size), its profile fitting the wave (waveFit) at least WAVE_MIN_FIT and
 * WAVE_MARGIN above the roof, swinging at least WAVE_MIN_SWING px.
 */
export function isWave(g: Gray, m: Blob, letterH: number): boolean {
  return waveClass(g, m, letterH) === 'wave';
}

/**
 * 'wave' where a blob is a tilde by isWave's rules; 'leaning' where it is of a tilde's size, fits the wave
 * at least WAVE_MIN_FIT and better than the roof but by under WAVE_MARGIN (final23 #61's ARAJẼ on a
 * screenshot in Liberation Serif: a 9 x 4 px mark touching the E, wave 0.64, roof 0.53): no roof drawn
 * fitted the wave over 0.39, so such ink is no clear roof, and a roof read over it is doubted; undefined
 * otherwise.
 */
export function waveClass(g: Gray, m: Blob, letterH: number): 'wave' | 'leaning' | undefined {
  const w = m.x1 - m.x0 + 1, h = m.y1 - m.y0 + 1;
  if (w < WAVE_MIN_WIDTH || w < WAVE_MIN_SHARE * letterH || w < WAVE_MIN_ASPECT * h || h > 0.32 * letterH || w > 0.65 * letterH) return undefined;
  const f = waveFit(g, m);
  if (f.wave < WAVE_MIN_FIT || f.wave <= f.roof || f.swing < WAVE_MIN_SWING || Math.abs(f.line) > WAVE_MAX_LINE) return undefined;
  return f.wave - f.roof >= WAVE_MARGIN ? 'wave' : 'leaning';
}

/**
 * How far (px, root mean square) the gray-weighted ink centres of a blob's columns lie from their own
 * straight line (its first and last columns, a bar's thin ends, left out): about 0 for a bar, 0.1-0.7
 * for a wave. 0 when the blob has under 5 columns.
 */
export function barWave(g: Gray, m: Blob): number {
  const centres = inkCentres(g, m, m.x0 + 1, m.x1 - 1);
  const xs = centres.map((p) => p.x), cs = centres.map((p) => p.c);
  const n = xs.length;
  if (n < 3) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n, mc = cs.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let k = 0; k < n; k++) { sxy += (xs[k] - mx) * (cs[k] - mc); sxx += (xs[k] - mx) ** 2; }
  const b = sxx ? sxy / sxx : 0;
  return Math.sqrt(cs.reduce((a, c, k) => a + (c - mc - b * (xs[k] - mx)) ** 2, 0) / n);
}

/**
 * A level bar over a capital (a macron: Hawaiian's kahakō Ō Ā, Latvian's Ē Ī Ū), told from a roof and a
 * wave by its size and its gray levels (twenty-sixth round): at least LEVEL_MIN_SHARE of its letters'
 * height `letterH` wide (and 5 px), at most LEVEL_MAX_HEIGHT of it tall (2 px at least) and 0.65 wide, its
 * columns' gray-weighted centres on one straight line within LEVEL_MAX_WAVE px (barWave), their middle
 * standing at most LEVEL_MAX_LIFT px over that line (waveFit `lift`) and the line rising or falling at most
 * LEVEL_MAX_RISE px across the bar. Measured on PŌHAKU, KŌKUA, MĀLIA and ÂNGELO, CÔRTES, CÂNDIDO,
 * ESTÊVÃO, SIMÕES, JOÃO drawn in the seven card faces at 20-28 px, clean and blurred 0.8-1.2 px at JPEG
 * 40-60: macrons clean wave 0.006-0.021, lift -0.16..0.07; roofs lift 0.5-2.2 clean, down to 0.1 blurred
 * 1.2 px (a blurred roof's box is 4-5 rows, over LEVEL_MAX_HEIGHT). Through glyph-accent.ts mendMarks, no
 * roof or tilde of the 630 drawings changed; the macron words read with a roof came out right in 72 of 189
 * drawings at 20, 24 and 28 px (40 before: the blurred ones do not tell).
 */
export function levelBar(g: Gray, m: Blob, letterH: number): boolean {
  const w = m.x1 - m.x0 + 1, h = m.y1 - m.y0 + 1;
  if (w < 5 || w < LEVEL_MIN_SHARE * letterH || h > Math.max(2, LEVEL_MAX_HEIGHT * letterH) || w > 0.65 * letterH) return false;
  const centres = inkCentres(g, m, m.x0 + 1, m.x1 - 1);
  if (centres.length < 3) return false;
  const rise = Math.abs(centres[centres.length - 1].c - centres[0].c);
  return barWave(g, m) <= LEVEL_MAX_WAVE && Math.abs(waveFit(g, m).lift) <= LEVEL_MAX_LIFT && rise <= LEVEL_MAX_RISE;
}
/** levelBar's limits: at least this share of its letters' height wide... */
export const LEVEL_MIN_SHARE = 0.3;
/** ...at most this share of it tall (2 px at least)... */
export const LEVEL_MAX_HEIGHT = 0.2;
/** ...its centres this close (px, root mean square) to their line... */
export const LEVEL_MAX_WAVE = 0.03;
/** ...their middle lifted at most this many pixels over the line (waveFit `lift`: a roof's 0.5-2.2)... */
export const LEVEL_MAX_LIFT = 0.15;
/** ...which rises at most this many pixels across the bar (an acute or a grave is a slanted stroke). */
export const LEVEL_MAX_RISE = 0.3;

/**
 * The capital `base` with a tilde (NFC: Ã Ẽ Ĩ Ñ Õ Ũ Ỹ...), or undefined when Unicode composes none.
 */
export function tildeLetter(base: string): string | undefined {
  const c = (base + '\u0303').normalize('NFC');
  return [...c].length === 1 ? c : undefined;
}

/**
 * A roof with a tone mark stacked on its right (Vietnamese Ế Ấ Ố, final20's names) run into one blob rises
 * to the right as a whole: its raw profile fits a rising line 0.68-0.96 (drawn: YẾN in the seven faces at
 * 24 and 28 px, blurred), where the tildes drawn fit one from -0.91 to +0.33. A wave read over a letter
 * read with a roof is taken only where its line fits under this.
 */
export const STACKED_MIN_RISE = 0.5;

/** Whether a blob's raw profile rises to the right like a roof with a stacked tone mark (STACKED_MIN_RISE). */
export function risesLikeStack(g: Gray, m: Blob): boolean {
  return waveFit(g, m).line >= STACKED_MIN_RISE;
}
