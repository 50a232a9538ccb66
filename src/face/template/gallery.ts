/**
 * In-memory 1:N face gallery: brute-force search over every template in two steps (see
 * quantize.ts): an int8 scan of all rows, then the best rows (at least 64, 4*topK+16 and more when a
 * few persons own them all) rescored with their 16-bit codes, the decision score verify and match
 * also use (quantize16: code = 256 * int8 code + int8 residual, residuals on the first R dims). A
 * row left out of the rescoring would need an int8 error (~1e-3) larger than its gap to the 64th
 * best row. Memory per template: D bytes (int8 row) + R (residual row) + 4 (scale) + 4 (row ->
 * person), i.e. 456 bytes for the engine's D = 320, R = 128, plus per-person bookkeeping (ext_id
 * string, row list).
 * Large galleries scan with onnxruntime's MatMulInteger (int8 x int8 -> int32, MLAS kernels);
 * small ones with a plain JS loop. A person's score is its best template's score.
 */
import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { FaceError } from '../errors.js';
import type { FaceGallery, GalleryHit } from '../engine.js';
import { dotInt8, quantize, quantize16 } from './quantize.js';

/** Rows from which the ONNX MatMulInteger path is used. */
const ORT_MIN_ROWS = 8192;
/** Fewest int8-scan rows rescored with 16-bit codes (int8 scores are within ~1e-3 of those). */
const MIN_RESCORED_ROWS = 64;

export class Int8FaceGallery implements FaceGallery {
  private rows: Int8Array;
  private scales: Float32Array;
  /** Residuals r = code16 - 256 * int8 code of the first residualDims dims (see quantize16). */
  private residuals: Int8Array;
  private rowPerson: Int32Array;
  private count = 0;
  private readonly personIndex = new Map<string, number>();
  private readonly personIds: Array<string | null> = [];
  private readonly personRows: number[][] = [];
  private readonly freePersons: number[] = [];

  constructor(
    private readonly dim: number,
    /** Decodes + checks a template (throws INVALID_TEMPLATE / TEMPLATE_INCOMPATIBLE). */
    private readonly decode: (t: Uint8Array) => Float32Array,
    private readonly matmul: ort.InferenceSession | null,
    initialCapacity = 1024,
    /** Dims with a residual (quantize16's residualDims; the rest score at int8 precision). */
    private readonly residualDims = dim,
  ) {
    this.rows = new Int8Array(initialCapacity * dim);
    this.scales = new Float32Array(initialCapacity);
    this.residuals = new Int8Array(initialCapacity * residualDims);
    this.rowPerson = new Int32Array(initialCapacity);
  }

  get size(): number {
    return this.count;
  }

  /** Number of persons held. */
  get persons(): number {
    return this.personIndex.size;
  }

  /** Approximate bytes held per template (typed arrays at current capacity / templates). */
  get bytesPerTemplate(): number {
    const bytes = this.rows.byteLength + this.scales.byteLength + this.residuals.byteLength + this.rowPerson.byteLength;
    return this.count ? bytes / this.count : 0;
  }

  /** Makes room for `min` rows: 1.5x steps, or exactly `min` when `exact` (bulk loads know their size). */
  private grow(min: number, exact = false): void {
    if (min <= this.scales.length) return;
    let cap = this.scales.length;
    if (exact) cap = min;
    while (cap < min) cap = Math.ceil(cap * 1.5);
    const rows = new Int8Array(cap * this.dim);
    rows.set(this.rows.subarray(0, this.count * this.dim));
    const scales = new Float32Array(cap);
    scales.set(this.scales.subarray(0, this.count));
    const residuals = new Int8Array(cap * this.residualDims);
    residuals.set(this.residuals.subarray(0, this.count * this.residualDims));
    const rp = new Int32Array(cap);
    rp.set(this.rowPerson.subarray(0, this.count));
    this.rows = rows;
    this.scales = scales;
    this.residuals = residuals;
    this.rowPerson = rp;
  }

  /** Reserves room for `n` templates in total (avoids regrowth when bulk loading). */
  reserve(n: number): void {
    this.grow(n, true);
  }

  /** Adds or replaces all templates of a person; nothing changes when a template is refused. */
  upsert(extId: string, templates: Uint8Array[]): void {
    const vectors = templates.map((t) => this.decode(t));
    this.upsertVectors(extId, vectors);
  }

  /** Same as upsert with already decoded, L2-normalised vectors. */
  upsertVectors(extId: string, vectors: Float32Array[]): void {
    for (const v of vectors) {
      if (v.length !== this.dim) throw new FaceError('TEMPLATE_INCOMPATIBLE', `Expected ${this.dim}-d vectors`);
    }
    this.remove(extId);
    if (vectors.length === 0) return;
    let p = this.freePersons.pop();
    if (p === undefined) {
      p = this.personIds.length;
      this.personIds.push(null);
      this.personRows.push([]);
    }
    this.personIds[p] = extId;
    this.personIndex.set(extId, p);
    this.grow(this.count + vectors.length);
    const list: number[] = [];
    for (const v of vectors) {
      const r = this.count++;
      const o = r * this.dim;
      this.scales[r] = quantize(v, this.rows, o).scale;
      const code = quantize16(v, this.residualDims).q;
      const ro = r * this.residualDims;
      for (let i = 0; i < this.residualDims; i++) this.residuals[ro + i] = code[i] - 256 * this.rows[o + i];
      this.rowPerson[r] = p;
      list.push(r);
    }
    this.personRows[p] = list;
  }

  remove(extId: string): void {
    const p = this.personIndex.get(extId);
    if (p === undefined) return;
    const rows = [...this.personRows[p]].sort((a, b) => b - a);
    for (const r of rows) {
      const last = --this.count;
      if (r !== last) {
        this.rows.copyWithin(r * this.dim, last * this.dim, (last + 1) * this.dim);
        this.scales[r] = this.scales[last];
        this.residuals.copyWithin(r * this.residualDims, last * this.residualDims, (last + 1) * this.residualDims);
        const moved = this.rowPerson[last];
        this.rowPerson[r] = moved;
        const list = this.personRows[moved];
        list[list.indexOf(last)] = r;
      }
    }
    this.personRows[p] = [];
    this.personIds[p] = null;
    this.personIndex.delete(extId);
    this.freePersons.push(p);
  }

  /**
   * Best `topK` persons for the probe, best first (score = best template's similarity).
   * @throws FaceError INVALID_TEMPLATE / TEMPLATE_INCOMPATIBLE for a bad probe.
   */
  search(probe: Uint8Array, topK: number): GalleryHit[] {
    return this.searchVector(this.decode(probe), topK);
  }

  /** Same as search; galleries of >= 8192 templates are scored by onnxruntime (MatMulInteger). */
  async searchAsync(probe: Uint8Array, topK: number): Promise<GalleryHit[]> {
    return this.searchVectorAsync(this.decode(probe), topK);
  }

  /** search() with a decoded, L2-normalised probe vector (synchronous JS scoring). */
  searchVector(vector: Float32Array, topK: number): GalleryHit[] {
    const n = this.count;
    if (n === 0 || topK <= 0) return [];
    const { q, scale } = quantize(vector);
    const dots = new Int32Array(n);
    for (let r = 0; r < n; r++) dots[r] = dotInt8(this.rows, r * this.dim, q, 0, this.dim);
    return this.rank(dots, scale, vector, topK);
  }

  /** searchAsync() with a decoded, L2-normalised probe vector. */
  async searchVectorAsync(vector: Float32Array, topK: number): Promise<GalleryHit[]> {
    const n = this.count;
    if (!this.matmul || n < ORT_MIN_ROWS) return this.searchVector(vector, topK);
    if (topK <= 0) return [];
    const { q, scale } = quantize(vector);
    const out = await this.matmul.run({
      A: new Tensor('int8', this.rows.subarray(0, n * this.dim), [n, this.dim]),
      B: new Tensor('int8', q, [this.dim, 1]),
    });
    return this.rank(out.Y.data as Int32Array, scale, vector, topK);
  }

  /**
   * Top-K persons from per-row int8 dot products. The K best persons are the first K distinct
   * persons among the rows sorted by score, so only the best m rows are kept (m grows when a few
   * persons own all of them), rescored with 16-bit codes and re-sorted; no per-person array is touched.
   */
  private rank(dots: Int32Array, scale: number, vector: Float32Array, topK: number): GalleryHit[] {
    const n = this.count;
    const probe16 = quantize16(vector, this.residualDims);
    for (let m = Math.min(n, Math.max(MIN_RESCORED_ROWS, 4 * topK + 16)); ; m = Math.min(n, m * 4)) {
      const rows = this.topRows(dots, scale, m);
      for (const row of rows) row[0] = this.score16(probe16.q, probe16.scale, row[1]);
      rows.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const seen = new Set<number>();
      const hits: GalleryHit[] = [];
      for (const [score, r] of rows) {
        const p = this.rowPerson[r];
        if (seen.has(p)) continue;
        seen.add(p);
        hits.push({ extId: this.personIds[p] as string, score });
        if (hits.length === topK) return hits;
      }
      if (m >= n) return hits;
    }
  }

  /** 16-bit score of row r for a probe's codes: exactly similarity16 of the two vectors. */
  private score16(probe: Int16Array, probeScale: number, r: number): number {
    const o = r * this.dim;
    const ro = r * this.residualDims;
    let hi = 0;
    let lo = 0;
    for (let i = 0; i < this.dim; i++) hi += probe[i] * this.rows[o + i];
    for (let i = 0; i < this.residualDims; i++) lo += probe[i] * this.residuals[ro + i];
    return (256 * hi + lo) * (probeScale * (this.scales[r] / 256));
  }

  /** The m best rows as [score, row], best first. */
  private topRows(dots: Int32Array, scale: number, m: number): Array<[number, number]> {
    const n = this.count;
    const scales = this.scales;
    let buf: Array<[number, number]> = [];
    let floor = -Infinity;
    for (let r = 0; r < n; r++) {
      const s = dots[r] * (scale * scales[r]);
      if (s <= floor && buf.length >= m) continue;
      buf.push([s, r]);
      if (buf.length >= 2 * m + 64) {
        buf.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
        buf.length = m;
        floor = buf[m - 1][0];
      }
    }
    buf.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    if (buf.length > m) buf = buf.slice(0, m);
    return buf;
  }
}
