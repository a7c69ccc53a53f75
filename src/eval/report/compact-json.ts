/**
 * JSON indented by two spaces down to `depth` levels of nesting, with everything deeper on one
 * line: a large report stays readable at the top and compact in its per-query detail.
 * `JSON.parse` gives back the same value as for `JSON.stringify(value)`.
 */
export function stringifyCompact(value: unknown, depth: number, indent = ""): string {
  if (depth <= 0 || value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${stringifyCompact(item ?? null, depth - 1, inner)}`).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && typeof item !== "function");
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${stringifyCompact(item, depth - 1, inner)}`).join(",\n")}\n${indent}}`;
}
