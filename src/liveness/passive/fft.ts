/**
 * In-place iterative radix-2 complex FFT (Cooley-Tukey) and the 2-D power spectrum of a square
 * real patch. Sizes must be powers of two.
 */

/** Forward FFT of (re, im) of length n (a power of two), in place. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

/**
 * Power spectra |F(u,v)|^2 of two n x n real patches at the cost of one complex 2-D FFT (the first
 * as the real part, the second as the imaginary part, separated by Hermitian symmetry), each after
 * removing its mean and applying a 2-D Hann window; index [v * n + u], FFT order.
 */
export function powerSpectra2(a: Float32Array, b: Float32Array, n: number): [Float64Array, Float64Array] {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n * n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n * n;
  mb /= n * n;
  const win = new Float64Array(n);
  for (let i = 0; i < n; i++) win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / n);
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const w = win[x] * win[y];
      re[y * n + x] = (a[y * n + x] - ma) * w;
      im[y * n + x] = (b[y * n + x] - mb) * w;
    }
  }
  const rr = new Float64Array(n);
  const ri = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rr.set(re.subarray(y * n, (y + 1) * n));
    ri.set(im.subarray(y * n, (y + 1) * n));
    fft(rr, ri);
    re.set(rr, y * n);
    im.set(ri, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rr[y] = re[y * n + x];
      ri[y] = im[y * n + x];
    }
    fft(rr, ri);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rr[y];
      im[y * n + x] = ri[y];
    }
  }
  const pa = new Float64Array(n * n);
  const pb = new Float64Array(n * n);
  for (let v = 0; v < n; v++) {
    const vm = (n - v) % n;
    for (let u = 0; u < n; u++) {
      const k = v * n + u;
      const m = vm * n + ((n - u) % n);
      const ar = re[k] + re[m];
      const ai = im[k] - im[m];
      const br = im[k] + im[m];
      const bi = re[m] - re[k];
      pa[k] = (ar * ar + ai * ai) / 4;
      pb[k] = (br * br + bi * bi) / 4;
    }
  }
  return [pa, pb];
}
