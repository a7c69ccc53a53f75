/**
 * A compressed-sparse-row matrix and the two products the randomized SVD needs.
 * Dense operands and results are row-major `Float64Array`s.
 */
import { axpyRows } from "./linear-algebra.js";
import { internalError } from "../../errors.js";

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
      if (index < 0 || index >= cols)
        throw internalError(`sparseFromRows: row ${i} has column ${index}, outside [0, ${cols})`);
    }
    columnIndex.set(row.indices, rowStart[i]);
    values.set(row.values, rowStart[i]);
  });
  return { rows: rows.length, cols, rowStart, columnIndex, values };
}

/**
 * `A · X` for sparse `A` (`rows × cols`) and dense `X` (`cols × width`); the result is `rows × width`.
 * Each output element adds its products in stored-entry order (see {@link axpyRows}).
 */
export function multiplySparse(a: SparseMatrix, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let i = 0; i < a.rows; i++)
    axpyRows(a.values, a.columnIndex, a.rowStart[i], a.rowStart[i + 1], x, width, out, i * width, width);
  return out;
}

/**
 * The transpose of `A` in the same compressed-sparse-row form (`cols × rows`); within each of its
 * rows the entries keep the order of `A`'s rows, so products with it add in the same order as
 * products over `A`'s columns.
 */
export function transposeSparse(a: SparseMatrix): SparseMatrix {
  const rowStart = new Int32Array(a.cols + 1);
  for (let e = 0; e < a.columnIndex.length; e++) rowStart[a.columnIndex[e] + 1]++;
  for (let c = 0; c < a.cols; c++) rowStart[c + 1] += rowStart[c];
  const next = rowStart.slice(0, a.cols);
  const columnIndex = new Int32Array(a.columnIndex.length);
  const values = new Float64Array(a.columnIndex.length);
  for (let i = 0; i < a.rows; i++) {
    for (let e = a.rowStart[i]; e < a.rowStart[i + 1]; e++) {
      const at = next[a.columnIndex[e]]++;
      columnIndex[at] = i;
      values[at] = a.values[e];
    }
  }
  return { rows: a.cols, cols: a.rows, rowStart, columnIndex, values };
}

/**
 * `Aᵀ · Y` for sparse `A` (`rows × cols`) and dense `Y` (`rows × width`); the result is `cols × width`.
 * Each output element adds its products in row order. Pass `transposed` (from
 * {@link transposeSparse}) when multiplying by the same matrix more than once.
 */
export function multiplySparseTransposed(
  a: SparseMatrix,
  y: Float64Array,
  width: number,
  transposed: SparseMatrix = transposeSparse(a),
): Float64Array {
  return multiplySparse(transposed, y, width);
}
