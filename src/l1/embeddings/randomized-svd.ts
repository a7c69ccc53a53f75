import { jacobiEigen } from "./jacobi-eigen.js";
import { dot, mulberry32, multiply, orthonormalizeRows, randomMatrix, transpose } from "./linear-algebra.js";
import { multiplySparse, transposeSparse, type SparseMatrix } from "./sparse-matrix.js";

/** Options of {@link randomizedSvd}. */
export interface RandomizedSvdOptions {
  /** Number of singular triplets wanted; capped by `min(rows, cols)`. */
  components: number;
  /** Seed of the random test matrix. */
  seed: number;
  /** Power iterations that sharpen the captured range. */
  powerIterations: number;
  /** Extra random directions beyond `components`. @default 10 */
  oversampling?: number;
}

/** The leading singular values and right singular vectors of a matrix. */
export interface TruncatedSvd {
  /** Singular values, largest first; `0` for a component the matrix does not have. */
  singularValues: Float64Array;
  /** Row-major `cols × components`; column `j` is the right singular vector of value `j` (zero when the value is 0). */
  rightVectors: Float64Array;
}

/** Singular values below this fraction of the largest are treated as zero (rank deficiency). */
const RELATIVE_RANK_TOLERANCE = 1e-6;

/**
 * Truncated SVD of a sparse matrix `A` (`n × m`) by a randomized range finder (Halko, Martinsson
 * & Tropp 2011): `Q = orth(A Ω)` for a uniform random `Ω`, refined by `Q ← orth(A Aᵀ Q)` power iterations, then the small
 * `l × l` matrix `Qᵀ A Aᵀ Q = W Λ Wᵀ` is diagonalised by Jacobi rotations, giving `U = Q W`,
 * `Σ = √Λ` and `V = Aᵀ U Σ⁻¹`. Only `n × l` blocks are ever orthonormalised, so the cost grows
 * with the number of documents and stored entries, not with the vocabulary squared.
 * Each right vector's sign is fixed so that its largest-magnitude entry is positive.
 */
export function randomizedSvd(a: SparseMatrix, options: RandomizedSvdOptions): TruncatedSvd {
  const k = Math.max(0, Math.min(options.components, a.rows, a.cols));
  const n = a.rows;
  const m = a.cols;
  const singularValues = new Float64Array(k);
  const rightVectors = new Float64Array(m * k);
  if (k === 0) return { singularValues, rightVectors };
  const l = Math.min(k + (options.oversampling ?? 10), n, m);

  const at = transposeSparse(a);
  const omega = randomMatrix(m, l, mulberry32(options.seed));
  let basis = orthonormalBasis(multiplySparse(a, omega, l), n, l);
  for (let i = 0; i < options.powerIterations; i++) {
    const q = transpose(basis, l, n);
    basis = orthonormalBasis(multiplySparse(a, multiplySparse(at, q, l), l), n, l);
  }
  const q = transpose(basis, l, n);
  const image = transpose(multiplySparse(a, multiplySparse(at, q, l), l), n, l);
  const gram = new Float64Array(l * l);
  for (let i = 0; i < l; i++) {
    for (let j = i; j < l; j++) gram[i * l + j] = gram[j * l + i] = dot(basis, i * n, image, j * n, n);
  }
  const { values, vectors } = jacobiEigen(gram, l);

  const leading = new Float64Array(l * k);
  for (let r = 0; r < l; r++) for (let c = 0; c < k; c++) leading[r * k + c] = vectors[r * l + c];
  const u = multiply(q, leading, n, l, k);
  const v = multiplySparse(at, u, k);
  const largest = Math.sqrt(Math.max(values[0], 0));
  for (let c = 0; c < k; c++) {
    const sigma = Math.sqrt(Math.max(values[c], 0));
    const kept = sigma > RELATIVE_RANK_TOLERANCE * largest && sigma > 0;
    singularValues[c] = kept ? sigma : 0;
    let peak = 0;
    for (let r = 0; r < m; r++) if (Math.abs(v[r * k + c]) > Math.abs(peak)) peak = v[r * k + c];
    const scale = kept ? Math.sign(peak) / sigma : 0;
    for (let r = 0; r < m; r++) rightVectors[r * k + c] = v[r * k + c] * scale;
  }
  return { singularValues, rightVectors };
}

/** An orthonormal basis of the column space of `y` (`rows × cols`), one basis vector per row (`cols × rows`); zero rows for missing rank. */
function orthonormalBasis(y: Float64Array, rows: number, cols: number): Float64Array {
  const columns = transpose(y, rows, cols);
  orthonormalizeRows(columns, cols, rows);
  return columns;
}
