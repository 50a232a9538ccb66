/**
 * Logistic regression and ISO/IEC 30107-3 error rates for the liveness benchmark.
 * APCER: share of attack presentations of one type classified bona fide; BPCER: share of bona fide
 * presentations classified attacks. Scores are P(live): accepted as bona fide when score >= threshold.
 */
import type { FusionModel } from '../../src/liveness/passive/engine.js';

export interface Row {
  x: number[];
  live: boolean;
  /** Sample weight (default 1); the two classes are balanced on top of it. */
  w?: number;
}

/**
 * Class-balanced L2-regularised logistic regression by damped Newton's method on standardised inputs.
 * `offset`: the name of an input that enters with a fixed coefficient 1 on its raw value (the
 * network's log-odds), the others being fitted as corrections to it.
 */
export function fitLogistic(rows: Row[], names: FusionModel['inputs'], l2 = 1e-2, iters = 30, offset?: FusionModel['inputs'][number]): FusionModel {
  if (offset !== undefined) {
    const k = names.indexOf(offset);
    const rest = names.filter((_, j) => j !== k);
    const inner = fitLogisticWithOffset(
      rows.map((r) => ({ ...r, x: r.x.filter((_, j) => j !== k) })),
      rows.map((r) => r.x[k]),
      rest,
      l2,
      iters,
    );
    return { inputs: [offset, ...rest], mean: [0, ...inner.mean], std: [1, ...inner.std], weights: [1, ...inner.weights], bias: inner.bias };
  }
  return fitLogisticWithOffset(rows, rows.map(() => 0), names, l2, iters);
}

function fitLogisticWithOffset(rows: Row[], offsets: number[], names: FusionModel['inputs'], l2: number, iters: number): FusionModel {
  const d = names.length;
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + r.x[j], 0) / rows.length);
  const std = Array.from({ length: d }, (_, j) => Math.sqrt(rows.reduce((s, r) => s + (r.x[j] - mean[j]) ** 2, 0) / rows.length) || 1);
  const nPos = rows.filter((r) => r.live).reduce((s, r) => s + (r.w ?? 1), 0);
  const nNeg = rows.filter((r) => !r.live).reduce((s, r) => s + (r.w ?? 1), 0);
  const total = nPos + nNeg;
  const w = new Float64Array(d + 1); // last = bias
  const z = rows.map((r) => [...r.x.map((v, j) => (v - mean[j]) / std[j]), 1]);
  /** Class-balanced, weighted log-loss plus the L2 penalty (bias not penalised). */
  const loss = (v: Float64Array): number => {
    let L = 0;
    rows.forEach((r, i) => {
      const cw = (r.w ?? 1) * (r.live ? total / (2 * nPos) : total / (2 * nNeg));
      let s = offsets[i];
      for (let j = 0; j <= d; j++) s += v[j] * z[i][j];
      // log(1 + e^-s) for live, log(1 + e^s) otherwise, computed stably
      const m = r.live ? -s : s;
      L += cw * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    });
    for (let j = 0; j < d; j++) L += 0.5 * l2 * total * v[j] * v[j];
    return L;
  };
  for (let it = 0; it < iters; it++) {
    const g = new Float64Array(d + 1);
    const H = Array.from({ length: d + 1 }, () => new Float64Array(d + 1));
    rows.forEach((r, i) => {
      const cw = (r.w ?? 1) * (r.live ? total / (2 * nPos) : total / (2 * nNeg));
      let s = offsets[i];
      for (let j = 0; j <= d; j++) s += w[j] * z[i][j];
      const p = 1 / (1 + Math.exp(-s));
      const y = r.live ? 1 : 0;
      for (let j = 0; j <= d; j++) {
        g[j] += cw * (p - y) * z[i][j];
        for (let k = 0; k <= d; k++) H[j][k] += cw * p * (1 - p) * z[i][j] * z[i][k];
      }
    });
    for (let j = 0; j < d; j++) {
      g[j] += l2 * total * w[j];
      H[j][j] += l2 * total;
    }
    const step = solve(H.map((r) => Array.from(r)), Array.from(g));
    // Damped: halve the step until the penalised loss does not rise (plain Newton diverged with the
    // network's log-odds as a fixed offset, whose large values saturate the sigmoid).
    const before = loss(w);
    let t = 1;
    const trial = new Float64Array(d + 1);
    for (let k = 0; k < 30; k++, t /= 2) {
      for (let j = 0; j <= d; j++) trial[j] = w[j] - t * step[j];
      if (loss(trial) <= before) break;
    }
    w.set(trial);
  }
  return { inputs: names, mean, std, weights: Array.from(w.slice(0, d)), bias: w[d] };
}

function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const piv = M[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / piv;
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((r, i) => r[n] / (M[i][i] || 1e-12));
}

/** Threshold giving at most `bpcer` on the bona fide scores: the largest t with share(score < t) <= bpcer. */
export function thresholdAtBpcer(bonaFide: number[], bpcer: number): number {
  const s = [...bonaFide].sort((a, b) => a - b);
  const k = Math.floor(bpcer * s.length); // this many may fall below
  return k >= s.length ? Infinity : s[k];
}

export const rate = (scores: number[], pass: (s: number) => boolean): number => (scores.length ? scores.filter(pass).length / scores.length : NaN);

/** Area under the ROC curve (probability an attack scores below a bona fide), ties counted half. */
export function auc(bonaFide: number[], attacks: number[]): number {
  let s = 0;
  for (const b of bonaFide) for (const a of attacks) s += a < b ? 1 : a === b ? 0.5 : 0;
  return s / (bonaFide.length * attacks.length);
}
