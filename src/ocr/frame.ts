/**
 * The card found in a frame (the geometry half of preprocess.ts's preparation): decode (EXIF
 * orientation, green channel: red and black ink both turn dark, the pale green card stays light; an
 * interlaced video frame's two fields joined again, interlace.ts), a hard shadow lifted (shadow-step.ts)
 * and the frame's uneven light divided out (light.ts), light margins trimmed, the card found over a
 * darker background and straightened along its long axis (unless the type runs along the frame's rows
 * instead: skew.ts typeRefusesAxis; card-type.ts typeTurn) or, photographed at an angle, warped upright (perspective.ts), then residual skew and quarter turns from the text lines' projection profiles (skew.ts).
 * A crop by the bright region (no outline warped) that would cut off more than a quarter of the card's
 * type (card-type.ts TYPE_KEEP: a window's reflection or a shadow moved the region off the card) is
 * widened to hold the type's box.
 * What comes out depends only on the bytes and the turn (and mirroring) asked for: the reader prepares a page up to four
 * times (a turn of 180 degrees, second and third readings with other tone settings), so the last frame's
 * card is kept (FrameCache) and its later preparations start from it.
 */
import sharp from 'sharp';
import { deinterlace } from './interlace.js';
import { undither } from './dither.js';
import { findCardQuad, homography, needsPerspective, rectifiedSize, warpPerspective, type Quad } from './perspective.js';
import { findShadowStep, liftShadowStep } from './shadow-step.js';
import { UNEVEN_FRAME, dividePlane, framePlane, otsu } from './light.js';
import { greenWithoutBlueInk, hasBlueInk } from './stamp-ink.js';
import { blueOverlay } from './overlay-text.js';
import { colourNoise, hasCoarseColourNoise, lumaPlane } from './colour-noise.js';
import { darkenPaper, PAPER_PX, type Colour } from './paper-backdrop.js';
import { AXIS_CHECK_DEG, estimateSkew, typeRefusesAxis } from './skew.js';
import { brightAxis, brightBox } from './bright-region.js';
import { invertLuma, lightOnDark, polarityVotes, withoutSolids } from './polarity.js';
import { marksOnOppositeSides, pointsBox, pointsInBox, TYPE_KEEP, turnedMarks, typeMarks, typeTurn, unionBox } from './card-type.js';

/** With OCR_FRAME_DEBUG set, each step's choice to stderr (which frames the type's checks change). */
const frameDebug = (o: object): void => { if (process.env.OCR_FRAME_DEBUG) process.stderr.write(`[frame] ${JSON.stringify(o)}\n`); };

/** Analysis copy's longest side (px) for card finding and skew estimation. */
const ANALYSIS_PX = 700;

export interface Gray { data: Uint8Array; w: number; h: number }

/**
 * Decoded pixels carried between the steps: the green channel only (8 bit; everything downstream reads
 * green, where red and black ink are both dark), as raw pixels, never an encoded image (PNG round trips
 * and three bands cost more than the steps themselves). sharp's rotate by an angle with a background
 * colour hands back three equal bands; the first is kept.
 */
export interface Raw { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 }

export const fromRaw = (r: Raw): sharp.Sharp => sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels } });

async function toRaw(img: sharp.Sharp): Promise<Raw> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as Raw['channels'] };
}

async function grayOf(img: sharp.Sharp): Promise<Gray> {
  const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height };
}

/**
 * Crops uniform light margins (top-left pixel's level > 160), leaving at least 100 x 60 px. The margins
 * are found by sharp's trim (threshold 30) on a copy at most ANALYSIS_PX on its longer side (trimming a
 * full page costs ~0.1-0.3 s of CPU) and cut from the full image one copy pixel wider on each side.
 */
async function trimLight(img: Raw, analysis?: Analysis): Promise<Raw> {
  if (img.data[0] <= 160) return img;
  try {
    const k = Math.min(1, ANALYSIS_PX / Math.max(img.width, img.height));
    // The analysis copy (toAnalysis) is that same resize: reused when the caller has it.
    const small: Raw = k >= 1 ? img : analysis ? { data: Buffer.from(analysis.g.data.buffer, analysis.g.data.byteOffset, analysis.g.data.length), width: analysis.g.w, height: analysis.g.h, channels: 1 } : await toRaw(fromRaw(img).resize({ width: Math.max(1, Math.round(img.width * k)) }));
    const { info } = await fromRaw(small).trim({ threshold: 30 }).raw().toBuffer({ resolveWithObject: true });
    const sx = img.width / small.width, sy = img.height / small.height;
    const left = Math.max(0, Math.floor((-(info.trimOffsetLeft ?? 0) - 1) * sx)), top = Math.max(0, Math.floor((-(info.trimOffsetTop ?? 0) - 1) * sy));
    const width = Math.min(img.width - left, Math.ceil((info.width + 2) * sx)), height = Math.min(img.height - top, Math.ceil((info.height + 2) * sy));
    if (width <= 100 || height <= 60) return img;
    if (width === img.width && height === img.height) return img;
    return await toRaw(fromRaw(img).extract({ left, top, width, height }));
  } catch {
    return img;
  }
}

/** Analysis copy of a frame: green channel at most ANALYSIS_PX on its longer side; `scale` = copy px per frame px. */
interface Analysis { g: Gray; scale: number }

async function toAnalysis(rgb: Raw): Promise<Analysis> {
  const scale = Math.min(1, ANALYSIS_PX / Math.max(rgb.width, rgb.height));
  const g = await grayOf(fromRaw(rgb).resize({ width: Math.max(1, Math.round(rgb.width * scale)) }));
  return { g, scale: g.w / rgb.width };
}

/** The card inside `quad` (full-resolution corners TL, TR, BR, BL) warped to an upright rectangle. */
function rectify(rgb: Raw, quad: Quad): Raw {
  const { w, h } = rectifiedSize(quad);
  const rect: Quad = [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];
  const out = warpPerspective(new Uint8Array(rgb.data.buffer, rgb.data.byteOffset, rgb.data.length), rgb.width, rgb.height, rgb.channels, homography(rect, quad), w, h, [0, 0, 0, 0]);
  return { data: Buffer.from(out.buffer, out.byteOffset, out.length), width: w, height: h, channels: rgb.channels };
}

/**
 * The frame with its light plane divided out (light.ts framePlane, fitted on an analysis copy) when
 * the plane's spread is over UNEVEN_FRAME; otherwise the frame unchanged, with its analysis copy (the
 * next steps reuse it instead of making it again).
 */
async function evenFrame(rgb: Raw): Promise<{ rgb: Raw; analysis?: Analysis }> {
  let analysis = await toAnalysis(rgb);
  // A hard-edged shadow (a straight step across the whole frame) is lifted first (shadow-step.ts).
  const step = findShadowStep(analysis.g.data, analysis.g.w, analysis.g.h);
  if (step) {
    const lifted = Buffer.from(rgb.data);
    liftShadowStep(lifted, rgb.width, rgb.height, rgb.channels, step, analysis.scale);
    rgb = { ...rgb, data: lifted };
    analysis = await toAnalysis(rgb);
  }
  const { g } = analysis;
  const plane = framePlane(g.data, g.w, g.h);
  if (plane.spread <= UNEVEN_FRAME) return { rgb, analysis };
  const data = Buffer.from(rgb.data);
  dividePlane(data, rgb.width, rgb.height, rgb.channels, plane, g.w / rgb.width);
  return { rgb: { ...rgb, data } };
}

/** The card cut from a frame, upright, at the input's resolution (the green channel; `rgb.channels` equal bands). */
export interface FramedCard {
  rgb: Raw;
  /** Degrees the input was turned (clockwise) in all. */
  turned: number;
  /** Set when the card was warped upright: its corners (TL, TR, BR, BL, input px). */
  rectified?: Quad;
}

/**
 * The card found in the frame of `bytes` turned by `extraTurnDeg` (module comment), then mirrored left to
 * right when `mirrored` (a selfie camera's or a webcam preview's frame: index.ts ORIENTATIONS). Errors: sharp's
 * decode errors propagate.
 */
export async function findCard(bytes: Uint8Array, extraTurnDeg = 0, limitInputPixels?: number, mirrored = false): Promise<FramedCard> {
  const decoded = await decodeFrame(bytes, extraTurnDeg, limitInputPixels, mirrored);
  let rgb = decoded.raw;
  // Light type on a dark ground (a dark theme, a negative): turned negative before anything reads it (polarity.ts).
  const negative = lightOnDark(polarityVotes(rgb.data, rgb.width, rgb.height, rgb.channels));
  frameDebug({ step: 'polarity', negative });
  if (negative) invertLuma(rgb.data, rgb.channels);
  // A shadow across the whole frame is divided out before anything looks for the card (light.ts).
  let even = await evenFrame(rgb);
  // A tinted card lying on neutral printed paper: the paper darkened around it (paper-backdrop.ts),
  // its outline (one clean quadrilateral) the card's corners.
  // Not on a negative frame: a screen's or a negative's colours are no card's on printed paper.
  const colour = negative ? undefined : decoded.colour ?? (isJpeg(bytes) ? await colourOfFile(bytes, rgb.width, extraTurnDeg, limitInputPixels, mirrored) : undefined);
  const darkened = colour ? darkenPaper(even.rgb, colour) : null;
  let onPaper: { quad?: Quad } | null = null;
  if (darkened) {
    even = { rgb: darkened.rgb };
    const { mask } = darkened, sx = mask.w / rgb.width, sy = mask.h / rgb.height;
    const q = findCardQuad(mask, 128, brightAxis(mask, 128).angleDeg);
    onPaper = q ? { quad: q.map((p) => ({ x: p.x / sx, y: p.y / sy })) as Quad } : {};
  }
  const framed = even.rgb;
  // Uniform light margins (paper around a scan or a PDF page's card images) go first; dark ones are
  // left for the card finder, which also straightens by the card's edges.
  rgb = await trimLight(framed, even.analysis);
  let turned = extraTurnDeg;
  // The frame's analysis copy serves again when nothing was trimmed.
  let { g, scale } = rgb === framed && even.analysis ? even.analysis : await toAnalysis(rgb);
  const t = otsu(g.data);
  const axis = brightAxis(g, t);
  // Card over a darker background: straighten along the card's long axis, crop to the card.
  // A card photographed at an angle (its outline clearly not a rectangle) is warped upright instead.
  // On paper, the card's outline comes from its colour (a shadow across it leaves its shape whole).
  const quad = onPaper?.quad && rgb === framed ? onPaper.quad : axis.share > 0.1 && axis.share < 0.85 ? findCardQuad(g, t, axis.angleDeg) : null;
  let rectified: Quad | undefined;
  const bright = axis.share > 0.1 && axis.share < 0.85;
  frameDebug({ step: 'axis', angle: axis.angleDeg, share: axis.share, quad: !!quad, persp: quad ? needsPerspective(quad) : null });
  // A clean outline (findCardQuad: a convex quadrilateral over a dark background) is the card's own
  // edge, and is not checked against the marks: a textured backdrop's fine weave is marks too (final20
  // #27: a perspective photo on a patterned wall, 39 % of the frame's marks inside the card's outline).
  if (quad && (needsPerspective(quad) || quad === onPaper?.quad)) {
    const sx = quad === onPaper?.quad ? 1 : rgb.width / g.w, sy = quad === onPaper?.quad ? 1 : rgb.height / g.h;
    const full = quad.map((p) => ({ x: p.x * sx, y: p.y * sy })) as Quad;
    rgb = rectify(rgb, full);
    rectified = full;
    const top = { x: full[1].x - full[0].x + full[2].x - full[3].x, y: full[1].y - full[0].y + full[2].y - full[3].y };
    turned -= (Math.atan2(top.y, top.x) * 180) / Math.PI;
    ({ g, scale } = await toAnalysis(rgb));
  } else if (bright) {
    // The card's type (card-type.ts), asked whether a crop or a turn by the bright region goes against it;
    // not on paper: the paper's own print is type too, and the card's outline there comes from its colour.
    const marks = onPaper ? null : typeMarks(g);
    // Without an outline, a large turn by the bright region's axis must not go against the type: refused
    // when the type lines up far better unturned (typeRefusesAxis), taken at the type's own angle when
    // the type lines up better there (typeTurn).
    const refused = Math.abs(axis.angleDeg) > AXIS_CHECK_DEG && typeRefusesAxis(g, t, axis.angleDeg);
    const deg = refused ? 0 : marks ? typeTurn(marks, axis.angleDeg) : axis.angleDeg;
    const before = { w: rgb.width, h: rgb.height, scale };
    if (Math.abs(deg) > 0.3) {
      rgb = await toRaw(firstBand(fromRaw(rgb).rotate(-deg, { background: { r: 0, g: 0, b: 0 } }), rgb));
      turned -= deg;
      ({ g, scale } = await toAnalysis(rgb));
    }
    let box = brightBox(g, t);
    // A crop that cuts the type off is widened to hold the type's box (card-type.ts TYPE_KEEP).
    const pts = marks ? turnedMarks(marks, Math.abs(deg) > 0.3 ? -deg : 0, before, { w: rgb.width, h: rgb.height, scale }) : null;
    // Marks outside on two opposite sides of the crop are no type it cut off but text over the whole
    // picture (a white sharing watermark over a dark desk: card-type.ts marksOnOppositeSides).
    const kept = pts ? pointsInBox(pts, box) : 1, overAll = pts !== null && kept < TYPE_KEEP && marksOnOppositeSides(pts, box);
    const around = pts && kept < TYPE_KEEP && !overAll ? pointsBox(pts, g.w, g.h) : null;
    frameDebug({ step: 'box', refused, deg, box, kept, around, overAll });
    if (around) box = unionBox(box, around);
    const left = Math.max(0, Math.floor(box.left / scale)), top = Math.max(0, Math.floor(box.top / scale));
    const width = Math.min(rgb.width - left, Math.ceil(box.width / scale)), height = Math.min(rgb.height - top, Math.ceil(box.height / scale));
    if (width > 50 && height > 50) {
      rgb = await toRaw(fromRaw(rgb).extract({ left, top, width, height }));
      ({ g, scale } = await toAnalysis(rgb));
    }
  }
  // Residual skew and quarter turns from the text lines themselves.
  // On a negative frame the photo's and the QR code's light squares are solid dark blocks, whose
  // projections a turn would line up: they are left out (polarity.ts withoutSolids).
  const skew = estimateSkew(negative ? withoutSolids(g) : g, axis.share > 0.1 && axis.share < 0.85 ? 3 : 12);
  // Cards are landscape; a portrait crop whose text runs vertically is turned a quarter.
  if (skew.quarter && g.h > g.w) {
    rgb = await toRaw(fromRaw(rgb).rotate(90));
    turned += 90;
    ({ g, scale } = await toAnalysis(rgb));
    const again = estimateSkew(negative ? withoutSolids(g) : g, 12);
    skew.deg = again.deg;
  }
  frameDebug({ step: 'skew', deg: skew.deg, quarter: skew.quarter });
  if (Math.abs(skew.deg) >= 0.5) {
    rgb = await toRaw(firstBand(fromRaw(rgb).rotate(-skew.deg, { background: { r: 255, g: 255, b: 255 } }), rgb));
    turned -= skew.deg;
    rgb = await trimLight(rgb);
  }
  // A frame with blue or violet ink: the card's grey page with that ink read as paper (stamp-ink.ts;
  // a blue cloth or desk left in the crop is no ink: MAX_LIFTED_SHARE). Blue ink laid over the whole
  // picture at one level (a blue sharing watermark) is no stamp: the frame keeps its green, and the
  // overlay is divided out with those of other colours (overlay-text.ts).
  if (rgb.channels === 3) {
    const fringe = fringeOf(rgb.width, rgb.height);
    const inked = greenWithoutBlueInk(rgb.data, 3, rgb.width, fringe, [1, 0, 2]);
    let gray = inked.gray;
    if (inked.q !== null) {
      const green = Buffer.allocUnsafe(rgb.width * rgb.height);
      for (let i = 0; i < green.length; i++) green[i] = rgb.data[i * 3];
      if (blueOverlay(green, rgb.width, rgb.height)) gray = green;
      frameDebug({ step: 'blueInk', share: inked.share, overlay: gray === green });
    }
    rgb = { data: gray, width: rgb.width, height: rgb.height, channels: 1 };
  }
  return { rgb, turned, ...(rectified ? { rectified } : {}) };
}

/**
 * The frame decoded (EXIF orientation, the turn asked for): its green channel alone (its luma instead
 * when it has coarse colour noise: colour-noise.ts), or, when some of
 * its pixels are clearly blue or violet ink (stamp-ink.ts hasBlueInk, blocks within ~1/500 of the frame's
 * shorter side of type not counted: a lens's fringes; a notary's stamp, a pen), three
 * bands green, red, blue, so that everything that finds the card still reads green (band 0) and the
 * card's grey page is made at the end with that ink read as paper. The colour pass waits for the card:
 * a blue desk or mat around it must stay dark for the card finder. `colour`: a colour copy of the frame
 * PAPER_PX wide (RGB, shrunk from the same decoded pixels: the paper backdrop's colour test,
 * paper-backdrop.ts) for a PNG or other non-JPEG frame, whose second decode would cost a whole one
 * again; absent for a JPEG (colourOfFile: a JPEG decodes shrunk in the DCT for a fraction of the cost)
 * and for a frame without colour bands.
 */
async function decodeFrame(bytes: Uint8Array, extraTurnDeg: number, limitInputPixels?: number, mirrored = false): Promise<{ raw: Raw; colour?: Colour }> {
  const img = oriented(bytes, extraTurnDeg, limitInputPixels, mirrored).removeAlpha().toColourspace('srgb');
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  // A frame from an interlaced video source: its two fields joined again before anything mixes its rows (interlace.ts).
  deinterlace(data, info.width, info.height, info.channels, info.channels === 1 ? 0 : 1);
  // A frame posterised with an ordered dither: each pixel averaged over its pattern's period, at most 4 px (dither.ts).
  undither(data, info.width, info.height, info.channels, info.channels === 1 ? 0 : 1);
  const colour = info.channels === 3 && !isJpeg(bytes) ? await colourCopy(data, info.width, info.height) : undefined;
  // Coarse colour noise (a low-end phone's sensor and encoder): the luma, which does not carry it, instead
  // of green; blue ink cannot be told under it, so the stamp's ink stays as it is (colour-noise.ts).
  if (info.channels === 3 && hasCoarseColourNoise(colourNoise(data, 3, info.width, info.height))) {
    frameDebug({ step: 'colour-noise', luma: true });
    return { raw: { data: lumaPlane(data, 3, n), width: info.width, height: info.height, channels: 1 }, ...(colour ? { colour } : {}) };
  }
  if (info.channels !== 3 || !hasBlueInk(data, 3, info.width, Math.max(1, Math.round(Math.min(info.width, info.height) / 500)))) {
    const g = Buffer.allocUnsafe(n);
    for (let i = 0, j = info.channels === 1 ? 0 : 1; i < n; i++, j += info.channels) g[i] = data[j];
    return { raw: { data: g, width: info.width, height: info.height, channels: 1 }, ...(colour ? { colour } : {}) };
  }
  // Green first (band 0 is what the card finder reads), then red and blue.
  for (let j = 0; j < data.length; j += 3) { const r = data[j]; data[j] = data[j + 1]; data[j + 1] = r; }
  return { raw: { data, width: info.width, height: info.height, channels: 3 }, ...(colour ? { colour } : {}) };
}

/** An RGB frame (`data`, w x h, 3 bands) shrunk to PAPER_PX wide (or kept, when narrower): no second decode of the file. */
async function colourCopy(data: Buffer, w: number, h: number): Promise<Colour> {
  const cw = Math.min(PAPER_PX, w);
  const out = await sharp(data, { raw: { width: w, height: h, channels: 3 } }).resize({ width: cw }).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length), w: out.info.width, h: out.info.height };
}

/** The file's decoder, turned upright by its EXIF orientation, then by `extraTurnDeg` clockwise, mirrored left to right when `mirrored`. */
function oriented(bytes: Uint8Array, extraTurnDeg: number, limitInputPixels: number | undefined, mirrored: boolean): sharp.Sharp {
  const img = sharp(bytes, limitInputPixels ? { limitInputPixels } : {}).rotate().rotate(extraTurnDeg);
  return mirrored ? img.flop() : img;
}

/** Whether `bytes` is a JPEG file (its SOI marker). */
const isJpeg = (bytes: Uint8Array): boolean => bytes[0] === 0xff && bytes[1] === 0xd8;

/**
 * A JPEG frame's colour copy PAPER_PX wide (or `width`, its decoded width, when narrower) decoded again
 * from the file: libjpeg scales by 1/2 to 1/8 while decoding (shrink-on-load), ~15 ms a frame against
 * ~9 ms for shrinking the decoded pixels, and the copy is the one paperMask's thresholds were measured
 * on (the sixteenth round): shrunk from the full decode, final14's form masks moved by a few pixels and
 * the card crops with them (three documents' readings changed). Undefined without three bands.
 */
async function colourOfFile(bytes: Uint8Array, width: number, extraTurnDeg: number, limitInputPixels?: number, mirrored = false): Promise<Colour | undefined> {
  const { data, info } = await oriented(bytes, extraTurnDeg, limitInputPixels, mirrored).removeAlpha().toColourspace('srgb')
    .resize({ width: Math.min(PAPER_PX, width) }).raw().toBuffer({ resolveWithObject: true });
  return info.channels < 3 ? undefined : { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height };
}

/** How far (px) a lens's colour fringe may lie from type: about 1/400 of the card's shorter side. */
const fringeOf = (w: number, h: number): number => Math.max(1, Math.round(Math.min(w, h) / 400));

/** A rotated frame's bands: sharp hands back three equal bands for one, so the first is kept; three stay three. */
const firstBand = (img: sharp.Sharp, from: Raw): sharp.Sharp => (from.channels === 3 ? img : img.extractChannel(0));

/** How long a frame's card is kept after its last use, ms: a document's preparations follow each other within its reading. */
export const FRAME_KEEP_MS = 10_000;
/** Turns kept for one frame (the reader asks for 0 and 180 at most, each plain and mirrored). */
const MAX_TURNS = 4;

/**
 * The cards of the last frame prepared (findCard), by turn and mirroring, so that the same document's next
 * preparations (a second reading with another tone setting, a third) skip decoding, the light and the
 * card finder: what findCard returns depends on nothing else (the bytes, the turn, the pixel limit).
 * Another frame replaces them; they are dropped FRAME_KEEP_MS after their last use, and a failed
 * search is not kept. One per decode worker thread (`frames`).
 */
export class FrameCache {
  private bytes?: Buffer;
  private limit?: number;
  private readonly cards = new Map<string, Promise<FramedCard>>();
  private timer?: ReturnType<typeof setTimeout>;
  /** Searches run (findCard calls), for tests. */
  searches = 0;

  card(bytes: Uint8Array, extraTurnDeg = 0, limitInputPixels?: number, mirrored = false): Promise<FramedCard> {
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!this.bytes || this.limit !== limitInputPixels || !this.bytes.equals(b)) {
      this.clear();
      this.bytes = Buffer.from(b);
      this.limit = limitInputPixels;
    }
    this.keep();
    const key = `${extraTurnDeg}${mirrored ? 'm' : ''}`;
    let card = this.cards.get(key);
    if (!card) {
      if (this.cards.size >= MAX_TURNS) this.cards.clear();
      this.searches++;
      const found = findCard(bytes, extraTurnDeg, limitInputPixels, mirrored);
      card = found;
      this.cards.set(key, found);
      found.catch(() => { if (this.cards.get(key) === found) this.cards.delete(key); });
    }
    return card;
  }

  /** Drops the kept frame. */
  clear(): void {
    this.cards.clear();
    this.bytes = undefined;
    this.limit = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private keep(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), FRAME_KEEP_MS);
    this.timer.unref?.();
  }
}

/** This thread's frame cache (preprocess.ts prepareImage). */
export const frames = new FrameCache();
