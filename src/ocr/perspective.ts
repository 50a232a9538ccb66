/**
 * Perspective correction of a card photographed at an angle: the card's four corners from lines
 * fitted to its edges over a darker background, a test of whether that quadrilateral is clearly not a
 * rectangle, and a homography warp (bilinear, over raw pixels) to an upright rectangle.
 */

/** A point in pixel coordinates (continuous: pixel i covers [i, i + 1)). */
export interface Pt { x: number; y: number }
/** Corners in order top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Pt, Pt, Pt, Pt];

/** ID-1 card aspect ratio (85.6 x 54 mm). */
export const CARD_ASPECT = 85.6 / 54;
/** A quadrilateral is "not a rectangle" when a corner angle is off 90 degrees by more than this... */
export const MAX_ANGLE_DEV_DEG = 2;
/** ...or opposite sides differ in length by more than this fraction of the longer. */
export const MAX_SIDE_DIFF = 0.03;

/**
 * Homography (row-major 3x3, h[8] = 1) mapping each `from[i]` to `to[i]` (four point pairs, no three
 * collinear): the 8x8 linear system solved by Gaussian elimination with partial pivoting.
 */
export function homography(from: Quad, to: Quad): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i], { x: u, y: v } = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (Math.abs(a[p][c]) < 1e-12) throw new Error('degenerate quadrilateral');
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = a[r][c] / a[c][c];
      if (f !== 0) for (let k = c; k < 9; k++) a[r][k] -= f * a[c][k];
    }
  }
  return [...a.map((row, i) => row[8] / row[i]), 1];
}

export function applyH(h: number[], p: Pt): Pt {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

/**
 * Inverse-maps each pixel of an outW x outH output through `dstToSrc` and samples the interleaved
 * `channels`-channel source bilinearly; outside the source: `fill` (per channel).
 */
export function warpPerspective(src: Uint8Array, w: number, h: number, channels: number, dstToSrc: number[], outW: number, outH: number, fill: number[]): Uint8Array {
  if (channels === 1) return warpGray(src, w, h, dstToSrc, outW, outH, fill[0]);
  const out = new Uint8Array(outW * outH * channels);
  const [a, b, c, d, e, f, g, k, l] = dstToSrc;
  for (let v = 0; v < outH; v++) {
    const yc = v + 0.5;
    for (let u = 0; u < outW; u++) {
      const xc = u + 0.5;
      const z = g * xc + k * yc + l;
      const sx = (a * xc + b * yc + c) / z - 0.5, sy = (d * xc + e * yc + f) / z - 0.5;
      const o = (v * outW + u) * channels;
      const x0 = Math.floor(sx), y0 = Math.floor(sy);
      if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) {
        for (let ch = 0; ch < channels; ch++) out[o + ch] = fill[ch];
        continue;
      }
      const fx = sx - x0, fy = sy - y0;
      // Neighbours outside the source count as `fill`, so the source's edge blends into it.
      const in0 = x0 >= 0, in1 = x0 + 1 < w, jn0 = y0 >= 0, jn1 = y0 + 1 < h;
      const i00 = in0 && jn0 ? (y0 * w + x0) * channels : -1, i10 = in1 && jn0 ? (y0 * w + x0 + 1) * channels : -1;
      const i01 = in0 && jn1 ? ((y0 + 1) * w + x0) * channels : -1, i11 = in1 && jn1 ? ((y0 + 1) * w + x0 + 1) * channels : -1;
      for (let ch = 0; ch < channels; ch++) {
        const fc = fill[ch];
        const v00 = i00 < 0 ? fc : src[i00 + ch], v10 = i10 < 0 ? fc : src[i10 + ch];
        const v01 = i01 < 0 ? fc : src[i01 + ch], v11 = i11 < 0 ? fc : src[i11 + ch];
        const top = v00 + (v10 - v00) * fx, bot = v01 + (v11 - v01) * fx;
        out[o + ch] = Math.round(top + (bot - top) * fy);
      }
    }
  }
  return out;
}

/**
 * warpPerspective for one channel: the same arithmetic (so the same pixels), with the four neighbours
 * read directly where all lie inside the source (every pixel but a border's).
 */
function warpGray(src: Uint8Array, w: number, h: number, dstToSrc: number[], outW: number, outH: number, fc: number): Uint8Array {
  const out = new Uint8Array(outW * outH);
  const [a, b, c, d, e, f, g, k, l] = dstToSrc;
  for (let v = 0; v < outH; v++) {
    const yc = v + 0.5;
    for (let u = 0, o = v * outW; u < outW; u++, o++) {
      const xc = u + 0.5;
      const z = g * xc + k * yc + l;
      const sx = (a * xc + b * yc + c) / z - 0.5, sy = (d * xc + e * yc + f) / z - 0.5;
      const x0 = Math.floor(sx), y0 = Math.floor(sy);
      if (x0 < -1 || y0 < -1 || x0 >= w || y0 >= h) {
        out[o] = fc;
        continue;
      }
      const fx = sx - x0, fy = sy - y0;
      let v00: number, v10: number, v01: number, v11: number;
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h) {
        const i = y0 * w + x0;
        v00 = src[i]; v10 = src[i + 1]; v01 = src[i + w]; v11 = src[i + w + 1];
      } else {
        const in0 = x0 >= 0, in1 = x0 + 1 < w, jn0 = y0 >= 0, jn1 = y0 + 1 < h;
        v00 = in0 && jn0 ? src[y0 * w + x0] : fc; v10 = in1 && jn0 ? src[y0 * w + x0 + 1] : fc;
        v01 = in0 && jn1 ? src[(y0 + 1) * w + x0] : fc; v11 = in1 && jn1 ? src[(y0 + 1) * w + x0 + 1] : fc;
      }
      const top = v00 + (v10 - v00) * fx, bot = v01 + (v11 - v01) * fx;
      out[o] = Math.round(top + (bot - top) * fy);
    }
  }
  return out;
}

interface Gray { data: Uint8Array; w: number; h: number }

function sample(g: Gray, x: number, y: number): number {
  const sx = x - 0.5, sy = y - 0.5;
  const x0 = Math.max(0, Math.min(g.w - 1, Math.floor(sx))), y0 = Math.max(0, Math.min(g.h - 1, Math.floor(sy)));
  const x1 = Math.min(g.w - 1, x0 + 1), y1 = Math.min(g.h - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, sx - x0)), fy = Math.max(0, Math.min(1, sy - y0));
  const top = g.data[y0 * g.w + x0] * (1 - fx) + g.data[y0 * g.w + x1] * fx;
  const bot = g.data[y1 * g.w + x0] * (1 - fx) + g.data[y1 * g.w + x1] * fx;
  return top * (1 - fy) + bot * fy;
}

/** Line through points (total least squares): point on it and unit direction; outliers refitted away. */
function fitLine(pts: Pt[]): { p: Pt; d: Pt } | null {
  let cur = pts;
  let line: { p: Pt; d: Pt } | null = null;
  for (let iter = 0; iter < 3; iter++) {
    if (cur.length < 8) return null;
    let mx = 0, my = 0;
    for (const q of cur) { mx += q.x; my += q.y; }
    mx /= cur.length; my /= cur.length;
    let sxx = 0, syy = 0, sxy = 0;
    for (const q of cur) { sxx += (q.x - mx) ** 2; syy += (q.y - my) ** 2; sxy += (q.x - mx) * (q.y - my); }
    const th = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    line = { p: { x: mx, y: my }, d: { x: Math.cos(th), y: Math.sin(th) } };
    const res = cur.map((q) => Math.abs(-(q.x - mx) * line!.d.y + (q.y - my) * line!.d.x));
    const med = [...res].sort((a, b) => a - b)[Math.floor(res.length / 2)];
    const lim = Math.max(0.75, 3 * med);
    cur = cur.filter((_, i) => res[i] <= lim);
  }
  return line;
}

function intersect(a: { p: Pt; d: Pt }, b: { p: Pt; d: Pt }): Pt | null {
  const den = a.d.x * b.d.y - a.d.y * b.d.x;
  if (Math.abs(den) < 1e-6) return null;
  const t = ((b.p.x - a.p.x) * b.d.y - (b.p.y - a.p.y) * b.d.x) / den;
  return { x: a.p.x + t * a.d.x, y: a.p.y + t * a.d.y };
}

const dist = (a: Pt, b: Pt): number => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The card's corners in `g` (pixels above `t` are the card, `axisDeg` its principal-axis angle):
 * rough corners from the extremes along the four diagonals of the card's axes, then each edge refined
 * by a line fitted to the dark-to-light crossings along its normal (middle 76% of the edge, clear of
 * the rounded corners). Null when the region is not a clean convex quadrilateral over a dark background.
 */
export function findCardQuad(g: Gray, t: number, axisDeg: number): Quad | null {
  const r = (axisDeg * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
  const ext = [{ v: Infinity, p: { x: 0, y: 0 } }, { v: -Infinity, p: { x: 0, y: 0 } }, { v: -Infinity, p: { x: 0, y: 0 } }, { v: Infinity, p: { x: 0, y: 0 } }];
  let count = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) {
    if (g.data[y * g.w + x] <= t) continue;
    count++;
    const px = x + 0.5, py = y + 0.5;
    const xr = px * c + py * s, yr = -px * s + py * c;
    if (xr + yr < ext[0].v) ext[0] = { v: xr + yr, p: { x: px, y: py } };
    if (xr - yr > ext[1].v) ext[1] = { v: xr - yr, p: { x: px, y: py } };
    if (xr + yr > ext[2].v) ext[2] = { v: xr + yr, p: { x: px, y: py } };
    if (xr - yr < ext[3].v) ext[3] = { v: xr - yr, p: { x: px, y: py } };
  }
  const rough = ext.map((e) => e.p);
  const cx = rough.reduce((a, p) => a + p.x, 0) / 4, cy = rough.reduce((a, p) => a + p.y, 0) / 4;
  const lines: Array<{ p: Pt; d: Pt }> = [];
  for (let i = 0; i < 4; i++) {
    const a = rough[i], b = rough[(i + 1) % 4];
    const len = dist(a, b);
    if (len < 20) return null;
    let n = { x: (b.y - a.y) / len, y: -(b.x - a.x) / len };
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    if (n.x * (mid.x - cx) + n.y * (mid.y - cy) < 0) n = { x: -n.x, y: -n.y };
    const reach = Math.max(4, 0.04 * len);
    const pts: Pt[] = [];
    for (let k = 0; k <= 80; k++) {
      const f = 0.12 + (0.76 * k) / 80;
      const p = { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
      let prev = sample(g, p.x + n.x * reach, p.y + n.y * reach);
      if (prev > t) continue; // no background outside this point
      for (let st = reach - 0.5; st >= -reach; st -= 0.5) {
        const v = sample(g, p.x + n.x * st, p.y + n.y * st);
        if (v > t && sample(g, p.x + n.x * (st - 1), p.y + n.y * (st - 1)) > t) {
          const at = st + 0.5 * ((v - t) / Math.max(1e-6, v - prev));
          pts.push({ x: p.x + n.x * at, y: p.y + n.y * at });
          break;
        }
        prev = v;
      }
    }
    if (pts.length < 30) return null;
    const line = fitLine(pts);
    if (!line) return null;
    lines.push(line);
  }
  // lines[i] runs from corner i to corner i+1: corner i is where line i-1 meets line i.
  const quad: Pt[] = [];
  for (let i = 0; i < 4; i++) {
    const q = intersect(lines[(i + 3) % 4], lines[i]);
    if (!q || q.x < -2 || q.y < -2 || q.x > g.w + 2 || q.y > g.h + 2) return null;
    quad.push(q);
  }
  // The quadrilateral must explain the bright region: nearly all of it inside, and mostly bright.
  const cross = (o: Pt, a: Pt, p: Pt): number => (a.x - o.x) * (p.y - o.y) - (a.y - o.y) * (p.x - o.x);
  for (let i = 0; i < 4; i++) if (cross(quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]) <= 0) return null;
  let inside = 0, insideBright = 0;
  for (let y = 0; y < g.h; y++) for (let x = 0; x < g.w; x++) {
    const p = { x: x + 0.5, y: y + 0.5 };
    let ok = true;
    for (let i = 0; i < 4 && ok; i++) if (cross(quad[i], quad[(i + 1) % 4], p) < 0) ok = false;
    if (!ok) continue;
    inside++;
    if (g.data[y * g.w + x] > t) insideBright++;
  }
  if (insideBright < 0.97 * count || insideBright < 0.85 * inside) return null;
  return quad as Quad;
}

/** Largest deviation of a corner angle from 90 degrees, and of opposite side lengths (fraction). */
export function quadShape(q: Quad): { angleDev: number; sideDiff: number } {
  let angleDev = 0;
  for (let i = 0; i < 4; i++) {
    const p = q[(i + 3) % 4], o = q[i], n = q[(i + 1) % 4];
    const a1 = Math.atan2(p.y - o.y, p.x - o.x), a2 = Math.atan2(n.y - o.y, n.x - o.x);
    let d = Math.abs(a1 - a2) * 180 / Math.PI;
    if (d > 180) d = 360 - d;
    angleDev = Math.max(angleDev, Math.abs(d - 90));
  }
  const side = (i: number): number => dist(q[i], q[(i + 1) % 4]);
  const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(a, b);
  return { angleDev, sideDiff: Math.max(rel(side(0), side(2)), rel(side(1), side(3))) };
}

/** True when `q` is clearly not a rectangle (see MAX_ANGLE_DEV_DEG and MAX_SIDE_DIFF). */
export function needsPerspective(q: Quad): boolean {
  const s = quadShape(q);
  return s.angleDev > MAX_ANGLE_DEV_DEG || s.sideDiff > MAX_SIDE_DIFF;
}

/**
 * Output size of the upright rectangle for `q`: the longer of each pair of opposite sides; a single
 * card's aspect (measured within 10% of 85.6 x 54, either way up) is snapped to it.
 */
export function rectifiedSize(q: Quad): { w: number; h: number } {
  let w = Math.max(dist(q[0], q[1]), dist(q[3], q[2])), h = Math.max(dist(q[1], q[2]), dist(q[0], q[3]));
  const aspect = w / h;
  if (Math.abs(aspect / CARD_ASPECT - 1) < 0.1) h = w / CARD_ASPECT;
  else if (Math.abs(aspect * CARD_ASPECT - 1) < 0.1) w = h / CARD_ASPECT;
  return { w: Math.max(1, Math.round(w)), h: Math.max(1, Math.round(h)) };
}
