import { LookupKnowledgeError } from "../errors.js";

/** The error of a misused vector index: a malformed vector, option or change. */
export function vectorIndexMisuse(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INVALID_OPTION", `VectorIndex: ${message}.`);
}

/** What is wrong with row `row` of `vectors`, or null: finite numbers (as 32-bit floats), not all zero. */
export function rowProblem(vectors: Float32Array, row: number, dimensions: number): string | null {
  let nonZero = false;
  for (let c = row * dimensions; c < (row + 1) * dimensions; c++) {
    if (!Number.isFinite(vectors[c])) return `holds ${vectors[c]} at position ${c - row * dimensions}`;
    if (vectors[c] !== 0) nonZero = true;
  }
  return nonZero ? null : "is all zeros";
}

/**
 * The number of `dimensions`-long rows in `vectors`, each checked.
 * @throws LookupKnowledgeError `INVALID_OPTION` for bad dimensions, a partial row or a malformed row.
 */
export function checkRows(vectors: Float32Array, dimensions: number): number {
  checkDimensions(dimensions);
  if (vectors.length % dimensions !== 0)
    throw vectorIndexMisuse(`${vectors.length} values are not a whole number of ${dimensions}-dimensional vectors`);
  const count = vectors.length / dimensions;
  for (let row = 0; row < count; row++) {
    const problem = rowProblem(vectors, row, dimensions);
    if (problem !== null) throw vectorIndexMisuse(`vector ${row} ${problem}`);
  }
  return count;
}

/** @throws LookupKnowledgeError `INVALID_OPTION` unless `dimensions` is an integer >= 1. */
export function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1)
    throw vectorIndexMisuse(`dimensions must be an integer >= 1, got ${dimensions}`);
}
