/**
 * Errors whose trace line is already written (a lookup denied for want of a scope is traced by
 * the node that denied it, so that a graph invoked directly leaves its line too): the tool's
 * runner writes no second line for them.
 */
const traced = new WeakSet<object>();

/** Marks `error` as traced and returns it. */
export function markTraced<E>(error: E): E {
  if (typeof error === "object" && error !== null) traced.add(error);
  return error;
}

/** True when `error` already has its trace line. */
export function isTraced(error: unknown): boolean {
  return typeof error === "object" && error !== null && traced.has(error);
}
