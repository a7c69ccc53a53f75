/**
 * A compressed-sparse-row matrix and the two products the randomized SVD needs.
 * Dense operands and results are row-major `Float64Array`s.
 */
import { axpy } from "./linear-algebra.js";

/** A sparse vector: parallel arrays of strictly increasing indices and their values. */
export interface SparseVector {
  /** Column (term) indices, strictly increasing. */
  indices: Int32Array;
  /** The value at each index. */
  values: Float64Array;
}

/** A `rows × cols` matrix in compressed-sparse-row form. */
export interface SparseMatrix {
  /** Number of rows (documents). */
  rows: number;
  /** Number of columns (terms). */
  cols: number;
  /** Row `i` occupies entries `rowStart[i]` to `rowStart[i + 1] - 1`; length `rows + 1`. */
  rowStart: Int32Array;
  /** Column index of each stored entry. */
  columnIndex: Int32Array;
  /** Value of each stored entry. */
  values: Float64Array;
}

/**
 * Stacks sparse row vectors into a {@link SparseMatrix}.
 * @throws Error when a row refers to a column outside `[0, cols)`.
 */
export function sparseFromRows(rows: readonly SparseVector[], cols: number): SparseMatrix {
  const rowStart = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) rowStart[i + 1] = rowStart[i] + rows[i].indices.length;
  const columnIndex = new Int32Array(rowStart[rows.length]);
  const values = new Float64Array(rowStart[rows.length]);
  rows.forEach((row, i) => {
    for (const index of row.indices) {
      if (index < 0 || index >= cols) throw new Error(`sparseFromRows: row ${i} has column ${index}, outside [0, ${cols})`);
    }
    columnIndex.set(row.indices, rowStart[i]);
    values.set(row.values, rowStart[i]);
  });
  return { rows: rows.length, cols, rowStart, columnIndex, values };
}

/** `A · X` for sparse `A` (`rows × cols`) and dense `X` (`cols × width`); the result is `rows × width`. */
export function multiplySparse(a: SparseMatrix, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let i = 0; i < a.rows; i++) {
    const o = i * width;
    for (let e = a.rowStart[i]; e < a.rowStart[i + 1]; e++) {
      axpy(a.values[e], x, a.columnIndex[e] * width, out, o, width);
    }
  }
  return out;
}

/** `Aᵀ · Y` for sparse `A` (`rows × cols`) and dense `Y` (`rows × width`); the result is `cols × width`. */
export function multiplySparseTransposed(a: SparseMatrix, y: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.cols * width);
  for (let i = 0; i < a.rows; i++) {
    const y0 = i * width;
    for (let e = a.rowStart[i]; e < a.rowStart[i + 1]; e++) {
      axpy(a.values[e], y, y0, out, a.columnIndex[e] * width, width);
    }
  }
  return out;
}
