/**
 * Eigen-decomposition of small symmetric matrices by cyclic Jacobi rotations: slow for large
 * matrices but simple, unconditionally convergent and accurate to working precision.
 */

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
    if (off <= 1e-13 * 1e-13 * total) break;
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
