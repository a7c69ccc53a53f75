/** Cutting a JSON record to the trace bound (pure). */
import { capText } from "../text/cap-text.js";
import { fieldLimit, MAX_TRACE_LINE_BYTES, type TraceFieldLimit } from "./trace-limits.js";

/** A record after {@link boundRecord}: the same shape, plus what was cut. */
export type BoundedRecord<T> = T & {
  /**
   * Fields that were cut, as paths with `[]` for list items (`retrieval_details.evidence[].title`:
   * the title of at least one block; `...hit_reasons`: a list that lost items). Absent when
   * nothing was cut.
   */
  truncated?: string[];
};

/** Halvings of the shrinking limits tried before the smallest record is returned. */
const FIT_STEPS = 12;

function bytesOfLine(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8") + 1;
}

function cutText(text: string, max: number): string {
  return max <= 0 ? "" : capText(text, max);
}

/** A limit of `limit` times `scale`, for the limits that shrink. */
function scaled(max: number, limit: TraceFieldLimit, scale: number): number {
  return limit.shrinks ? Math.floor(max * scale) : max;
}

/** Copies `value` with every string and list cut to its field's limit times `scale`. */
function cut(value: unknown, path: string, limit: TraceFieldLimit, scale: number, cuts: Set<string>): unknown {
  if (typeof value === "string") {
    const kept = cutText(value, scaled(limit.maxChars, limit, scale));
    if (kept !== value) cuts.add(path);
    return kept;
  }
  if (Array.isArray(value)) {
    const max = scaled(limit.maxItems, limit, scale);
    if (value.length > max) cuts.add(path);
    const itemPath = `${path}[]`;
    const items = new Array<unknown>(Math.min(value.length, Math.max(0, max)));
    for (let i = 0; i < items.length; i++) items[i] = cut(value[i], itemPath, limit, scale, cuts);
    return items;
  }
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      copy[key] = cut(
        (value as Record<string, unknown>)[key],
        path === "" ? key : `${path}.${key}`,
        fieldLimit(key),
        scale,
        cuts,
      );
    }
    return copy;
  }
  return value;
}

function boundAt<T extends object>(record: T, scale: number): BoundedRecord<T> {
  const cuts = new Set<string>();
  const { truncated: earlier, ...rest } = record as T & { truncated?: unknown };
  const copy = cut(rest, "", fieldLimit(""), scale, cuts) as BoundedRecord<T>;
  // A record bounded before (and cut again) keeps what it already said was cut.
  const before = Array.isArray(earlier)
    ? earlier.filter((item): item is string => typeof item === "string").map((item) => cutText(item, 200))
    : [];
  const listed = [...new Set([...before, ...cuts])].sort();
  if (listed.length > 0) copy.truncated = listed;
  return copy;
}

/**
 * Cuts a JSON record so that its JSONL line fits in `maxBytes`: first every field to its
 * {@link TRACE_FIELD_LIMITS} entry, then, if the line is still too long, the shrinking limits
 * scaled down (a binary search for the largest scale that fits). Identity fields keep their
 * cap, numbers and booleans are never touched, strings are never cut inside a surrogate pair,
 * and `truncated` lists what was cut. A record whose empty skeleton is still too long (tens of
 * thousands of keys) comes back at its smallest; {@link serializeTraceLine} replaces it.
 * @param maxBytes bound on the line in UTF-8 bytes, newline included. @default MAX_TRACE_LINE_BYTES
 */
export function boundRecord<T extends object>(record: T, maxBytes: number = MAX_TRACE_LINE_BYTES): BoundedRecord<T> {
  const full = boundAt(record, 1);
  if (bytesOfLine(full) <= maxBytes) return full;
  let best = boundAt(record, 0);
  let [low, high] = [0, 1];
  for (let step = 0; step < FIT_STEPS; step++) {
    const scale = (low + high) / 2;
    const candidate = boundAt(record, scale);
    if (bytesOfLine(candidate) <= maxBytes) [best, low] = [candidate, scale];
    else high = scale;
  }
  return best;
}
