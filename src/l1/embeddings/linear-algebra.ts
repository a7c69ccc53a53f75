/**
 * Pure dense linear-algebra helpers for the statistical embedder. Every matrix is a
 * row-major `Float64Array` whose shape is passed alongside it; nothing here allocates
 * hidden state or depends on anything but its arguments.
 */

export { mulberry32 } from "../../seeded-random.js";

/**
 * A `rows × cols` matrix of values uniform in [-1, 1): a test matrix that serves the randomized
 * range finder as well as a Gaussian one. Values are continuous on purpose: a matrix of random
 * signs is singular with high probability when it is tiny, which would lose components.
 */
export function randomMatrix(rows: number, cols: number, random: () => number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = 2 * random() - 1;
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
export function axpy(
  alpha: number,
  x: Float64Array | Float32Array,
  xo: number,
  y: Float64Array,
  yo: number,
  length: number,
): void {
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

/**
 * `y[yo ..] += Σ alphas[t] · x[rows[t] · stride ..]` over `length` entries, for `t` from `from` to
 * `to - 1`: bit-identical to one {@link axpy} per term in that order (each output element still
 * rounds after every single addition, left to right), but eight terms share one pass over `y`,
 * which cuts its loads and stores eightfold. The kernel of every product of the embedder.
 */
export function axpyRows(
  alphas: Float64Array,
  rows: Int32Array | Uint32Array,
  from: number,
  to: number,
  x: Float64Array | Float32Array,
  stride: number,
  y: Float64Array,
  yo: number,
  length: number,
): void {
  let t = from;
  for (; t + 7 < to; t += 8) {
    const a0 = alphas[t];
    const a1 = alphas[t + 1];
    const a2 = alphas[t + 2];
    const a3 = alphas[t + 3];
    const a4 = alphas[t + 4];
    const a5 = alphas[t + 5];
    const a6 = alphas[t + 6];
    const a7 = alphas[t + 7];
    const x0 = rows[t] * stride;
    const x1 = rows[t + 1] * stride;
    const x2 = rows[t + 2] * stride;
    const x3 = rows[t + 3] * stride;
    const x4 = rows[t + 4] * stride;
    const x5 = rows[t + 5] * stride;
    const x6 = rows[t + 6] * stride;
    const x7 = rows[t + 7] * stride;
    for (let j = 0; j < length; j++) {
      y[yo + j] =
        y[yo + j] +
        a0 * x[x0 + j] +
        a1 * x[x1 + j] +
        a2 * x[x2 + j] +
        a3 * x[x3 + j] +
        a4 * x[x4 + j] +
        a5 * x[x5 + j] +
        a6 * x[x6 + j] +
        a7 * x[x7 + j];
    }
  }
  for (; t < to; t++) axpy(alphas[t], x, rows[t] * stride, y, yo, length);
}

/**
 * `A · B` for row-major `A` (`n × p`) and `B` (`p × q`); the result is `n × q`. Each output element
 * adds the products of the non-zero entries of its `A` row in column order (see {@link axpyRows}).
 */
export function multiply(a: Float64Array, b: Float64Array, n: number, p: number, q: number): Float64Array {
  const out = new Float64Array(n * q);
  const columns = new Int32Array(p);
  const alphas = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let k = 0; k < p; k++) {
      const aik = a[i * p + k];
      if (aik === 0) continue;
      columns[count] = k;
      alphas[count++] = aik;
    }
    axpyRows(alphas, columns, 0, count, b, q, out, i * q, q);
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
