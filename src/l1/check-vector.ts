/**
 * Embeddings are untrusted: a vector from them is checked here before hnswlib sees it (hnswlib
 * aborts the whole process, uncatchably, on a query array holding `null`, `undefined` or strings).
 */

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  if (typeof value === "string") return "a string";
  return String(typeof value === "number" ? value : typeof value);
}

function isNumericArray(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/**
 * What is wrong with a vector, or null when it is usable: an array (or typed array) of exactly
 * `dimensions` finite numbers, not all zero (cosine similarity is undefined for a zero vector).
 * `dimensions` null accepts any length of at least 1.
 */
export function vectorProblem(value: unknown, dimensions: number | null): string | null {
  if (!isNumericArray(value)) return `is ${describeValue(value)}, not an array of numbers`;
  if (dimensions !== null && value.length !== dimensions) return `has ${value.length} dimensions but the index has ${dimensions}`;
  if (value.length === 0) return "is empty";
  let nonZero = false;
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    if (typeof element !== "number") return `holds ${describeValue(element)} at position ${i}, not a number`;
    if (!Number.isFinite(element)) return `holds ${element} at position ${i}`;
    if (element !== 0) nonZero = true;
  }
  return nonZero ? null : "is all zeros";
}

/**
 * A plain copy of a checked vector, as hnswlib wants it.
 * @returns the vector, or the problem found by {@link vectorProblem}.
 */
export function checkedVector(value: unknown, dimensions: number | null): number[] | string {
  const problem = vectorProblem(value, dimensions);
  return problem === null ? Array.from(value as ArrayLike<number>) : problem;
}
