import { errorMessage } from "../errors.js";

/**
 * Embeddings are untrusted: a vector from them is checked here before hnswlib sees it (hnswlib
 * aborts the whole process, uncatchably, on a query array holding `null`, `undefined` or strings).
 */

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  return String(typeof value === "number" ? value : typeof value);
}

function isNumericArray(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/**
 * Reads every element of `value` exactly once into a plain array, so that what is checked is what
 * hnswlib gets (a proxy, a getter or an own iterator cannot answer differently the second time).
 */
function snapshot(value: unknown, dimensions: number | null): unknown[] | string {
  if (!isNumericArray(value)) return `is ${describeValue(value)}, not an array of numbers`;
  const length = value.length;
  if (dimensions !== null && length !== dimensions) return `has ${length} dimensions but the index has ${dimensions}`;
  if (length === 0) return "is empty";
  const copy = new Array<unknown>(length);
  for (let i = 0; i < length; i++) copy[i] = value[i];
  return copy;
}

/**
 * A plain copy of a usable vector, as hnswlib wants it, or what is wrong with it: it must be an
 * array (or typed array) of exactly `dimensions` numbers that are finite and not all zero as
 * hnswlib stores them (32-bit floats: `1e300` overflows, `1e-320` is zero), since cosine
 * similarity is undefined for a zero vector. `dimensions` null accepts any length from 1. A value
 * whose reading throws (a revoked proxy, a throwing getter) is a problem too, never a throw.
 */
export function checkedVector(value: unknown, dimensions: number | null): number[] | string {
  let copy: unknown[] | string;
  try {
    copy = snapshot(value, dimensions);
  } catch (error) {
    return `cannot be read (${errorMessage(error)})`;
  }
  if (typeof copy === "string") return copy;
  let nonZero = false;
  for (let i = 0; i < copy.length; i++) {
    const element = copy[i];
    if (typeof element !== "number") return `holds ${describeValue(element)} at position ${i}, not a number`;
    const stored = Math.fround(element);
    if (!Number.isFinite(stored))
      return `holds ${element} at position ${i}${Number.isFinite(element) ? ", beyond the range of a 32-bit float" : ""}`;
    if (stored !== 0) nonZero = true;
  }
  return nonZero ? (copy as number[]) : "is all zeros";
}

/** What is wrong with a vector (see {@link checkedVector}), or null when it is usable. */
export function vectorProblem(value: unknown, dimensions: number | null): string | null {
  const checked = checkedVector(value, dimensions);
  return typeof checked === "string" ? checked : null;
}
