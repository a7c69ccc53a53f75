/**
 * Pure dense linear-algebra helpers for the statistical embedder. Every matrix is a
 * row-major `Float64Array` whose shape is passed alongside it; nothing here allocates
 * hidden state or depends on anything but its arguments.
 */

/**
 * A seeded 32-bit pseudo-random generator (mulberry32): one seed gives the same
 * sequence on every platform, which keeps model fitting bit-for-bit reproducible.
 * @param seed Any number; only its low 32 bits are used.
 * @returns A function yielding floats in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A `rows × cols` matrix of random signs (±1): a Rademacher test matrix, which serves the
 * randomized range finder as well as a Gaussian one and takes 32 entries from each draw.
 */
export function randomSignMatrix(rows: number, cols: number, random: () => number): Float64Array {
  const out = new Float64Array(rows * cols);
  let bits = 0;
  for (let i = 0; i < out.length; i++) {
    if ((i & 31) === 0) bits = Math.floor(random() * 4294967296) >>> 0;
    out[i] = (bits >>> (i & 31)) & 1 ? 1 : -1;
  }
  return out;
}

/** Dot product of `x[xo .. xo+length)` and `y[yo .. yo+length)`; four accumulators keep the loop fast. */
export function dot(x: Float64Array, xo: number, y: Float64Array, yo: number, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < length; i += 4) {
    s0 += x[xo + i] * y[yo + i];
    s1 += x[xo + i + 1] * y[yo + i + 1];
    s2 += x[xo + i + 2] * y[yo + i + 2];
    s3 += x[xo + i + 3] * y[yo + i + 3];
  }
  for (; i < length; i++) s0 += x[xo + i] * y[yo + i];
  return s0 + s1 + (s2 + s3);
}

/** `y[yo ..] += alpha · x[xo ..]` over `length` entries. */
export function axpy(alpha: number, x: Float64Array, xo: number, y: Float64Array, yo: number, length: number): void {
  let i = 0;
  for (; i + 3 < length; i += 4) {
    y[yo + i] += alpha * x[xo + i];
    y[yo + i + 1] += alpha * x[xo + i + 1];
    y[yo + i + 2] += alpha * x[xo + i + 2];
    y[yo + i + 3] += alpha * x[xo + i + 3];
  }
  for (; i < length; i++) y[yo + i] += alpha * x[xo + i];
}

/** The transpose (`cols × rows`) of a row-major `rows × cols` matrix. */
export function transpose(m: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) out[j * rows + i] = m[i * cols + j];
  }
  return out;
}

/** `A · B` for row-major `A` (`n × p`) and `B` (`p × q`); the result is `n × q`. */
export function multiply(a: Float64Array, b: Float64Array, n: number, p: number, q: number): Float64Array {
  const out = new Float64Array(n * q);
  for (let i = 0; i < n; i++) {
    const o = i * q;
    for (let k = 0; k < p; k++) {
      const aik = a[i * p + k];
      if (aik === 0) continue;
      axpy(aik, b, k * q, out, o, q);
    }
  }
  return out;
}

/** Rows whose independent part is below this fraction of their length count as dependent. */
const DEPENDENT_ROW = 1e-10;

/**
 * Orthonormalises the rows of a row-major `rows × cols` matrix in place with modified
 * Gram–Schmidt. A row that loses most of its length to the projections is swept a second
 * time ("twice is enough"), and a row that lies in the span of earlier rows becomes a zero row.
 * @returns The number of independent (non-zero) rows.
 */
export function orthonormalizeRows(m: Float64Array, rows: number, cols: number): number {
  const kept = new Uint8Array(rows);
  let rank = 0;
  for (let i = 0; i < rows; i++) {
    const ri = i * cols;
    const original = norm(m, ri, cols);
    let before = original;
    let after = original;
    for (let pass = 0; pass < 2 && original > 0; pass++) {
      for (let j = 0; j < i; j++) {
        if (kept[j] === 0) continue;
        axpy(-dot(m, j * cols, m, ri, cols), m, j * cols, m, ri, cols);
      }
      after = norm(m, ri, cols);
      if (after > 0.5 * before) break;
      before = after;
    }
    const independent = original > 0 && after > DEPENDENT_ROW * original;
    const scale = independent ? 1 / after : 0;
    for (let c = 0; c < cols; c++) m[ri + c] *= scale;
    if (independent) {
      kept[i] = 1;
      rank++;
    }
  }
  return rank;
}

function norm(m: Float64Array, offset: number, length: number): number {
  return Math.sqrt(dot(m, offset, m, offset, length));
}

/** Eigenvalues and eigenvectors of a symmetric matrix, as returned by {@link jacobiEigen}. */
export interface SymmetricEigen {
  /** Eigenvalues, largest first. */
  values: Float64Array;
  /** Row-major `n × n`; column `j` is the unit eigenvector of `values[j]`. */
  vectors: Float64Array;
}

/**
 * Eigen-decomposition of a symmetric `n × n` matrix by cyclic Jacobi rotations. Accurate
 * to working precision for the small (`l × l`) matrices of the randomized SVD.
 * @param symmetric Row-major and symmetric; it is not modified.
 * @param maxSweeps Upper bound on full sweeps over the off-diagonal. @default 60
 */
export function jacobiEigen(symmetric: Float64Array, n: number, maxSweeps = 60): SymmetricEigen {
  const a = Float64Array.from(symmetric);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * a[i];
  const negligible = 1e-15 * Math.sqrt(total);
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off <= (1e-13 * 1e-13) * total) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) <= negligible) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        rotate(a, v, n, p, q, c, s);
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y] - a[x * n + x] || x - y);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    values[to] = a[from * n + from];
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from];
  });
  return { values, vectors };
}

/** `A ← Jᵀ A J` and `V ← V J` for the Givens rotation `J` in the (p, q) plane. */
function rotate(a: Float64Array, v: Float64Array, n: number, p: number, q: number, c: number, s: number): void {
  for (let k = 0; k < n; k++) {
    const akp = a[k * n + p];
    const akq = a[k * n + q];
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
    const vkp = v[k * n + p];
    const vkq = v[k * n + q];
    v[k * n + p] = c * vkp - s * vkq;
    v[k * n + q] = s * vkp + c * vkq;
  }
  for (let k = 0; k < n; k++) {
    const apk = a[p * n + k];
    const aqk = a[q * n + k];
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  a[p * n + q] = 0;
  a[q * n + p] = 0;
}
