import { invalidCorpusFile } from "../corpus/corpus-file-error.js";

/** Deepest nesting {@link stableJson} follows before it gives up. */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON text of `value` with object keys sorted at every level, so that two equal metadata
 * objects hash alike whatever their key order. Follows `toJSON` (dates), writes a bigint as its
 * digits, leaves out `undefined` and functions as `JSON.stringify` does. Pure.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a cycle or nesting deeper than {@link MAX_JSON_DEPTH}.
 */
export function stableJson(value: unknown): string {
  const seen = new Set<object>();
  const write = (item: unknown, depth: number): string | undefined => {
    if (depth > MAX_JSON_DEPTH) throw invalidCorpusFile(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (item !== null && typeof item === "object" && typeof (item as { toJSON?: unknown }).toJSON === "function") {
      item = (item as { toJSON: () => unknown }).toJSON();
    }
    if (item === null || typeof item === "string" || typeof item === "boolean") return JSON.stringify(item);
    if (typeof item === "number") return Number.isFinite(item) ? JSON.stringify(item) : "null";
    if (typeof item === "bigint") return JSON.stringify(item.toString());
    if (typeof item !== "object") return undefined;
    if (seen.has(item)) throw invalidCorpusFile("holds a cycle");
    seen.add(item);
    let text: string;
    if (Array.isArray(item)) {
      text = `[${item.map((entry) => write(entry, depth + 1) ?? "null").join(",")}]`;
    } else {
      const fields: string[] = [];
      for (const key of Object.keys(item).sort()) {
        const entry = write((item as Record<string, unknown>)[key], depth + 1);
        if (entry !== undefined) fields.push(`${JSON.stringify(key)}:${entry}`);
      }
      text = `{${fields.join(",")}}`;
    }
    seen.delete(item);
    return text;
  };
  return write(value, 0) ?? "null";
}
