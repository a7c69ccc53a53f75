import { invalidCorpusFile } from "../corpus/corpus-file-error.js";
import { normalizeFrontmatter } from "../corpus/frontmatter.js";
import type { DocumentMeta } from "../types.js";
import type { MetadataField } from "./document-options.js";

/**
 * Most characters one mapped metadata field may hold (its text, or its items summed): far above a
 * real title or keyword list, far below what would bloat both indexes, which keep the fields per chunk.
 */
export const MAX_METADATA_FIELD_CHARS = 64 * 1024;

/** Most items a list field (keywords, entities, aliases, access) may hold. */
export const MAX_METADATA_LIST_ITEMS = 1000;

/** The frontmatter name of each field: what `normalizeFrontmatter` reads. */
const CANONICAL: Readonly<Record<MetadataField, string>> = {
  title: "title",
  domain: "domain",
  keywords: "keywords",
  entities: "entities",
  aliases: "aliases",
  access: "access",
};

function sizeOf(value: unknown, key: string): number {
  if (typeof value === "string") return value.length;
  if (typeof value === "number") return String(value).length;
  if (!Array.isArray(value)) return 0; // a wrong type: normalizeFrontmatter names it
  if (value.length > MAX_METADATA_LIST_ITEMS) {
    throw invalidCorpusFile(
      `metadata field "${key}" has ${value.length} items, at most ${MAX_METADATA_LIST_ITEMS}; shorten the list`,
    );
  }
  let chars = 0;
  for (const item of value)
    chars += typeof item === "string" ? item.length : typeof item === "number" ? String(item).length : 0;
  return chars;
}

/**
 * Reads a LangChain document's metadata into {@link DocumentMeta} through `fields` (the first
 * key of each list that is present), validated as frontmatter is, with errors naming the
 * metadata key. Fields of `base` (the document's own frontmatter, for Markdown) are kept where
 * the metadata has none. Pure.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a wrong type or an oversized field.
 */
export function metaOfMetadata(
  metadata: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<MetadataField, readonly string[]>>,
  base: Readonly<Record<string, unknown>> = {},
): DocumentMeta {
  const data: Record<string, unknown> = {};
  const keyOf = new Map<string, string>();
  for (const [key, value] of Object.entries(base)) {
    data[key] = value;
    keyOf.set(key, `frontmatter field "${key}"`);
  }
  for (const field of Object.keys(CANONICAL) as MetadataField[]) {
    const key = fields[field].find((name) => Object.hasOwn(metadata, name) && metadata[name] !== undefined);
    if (key === undefined) continue;
    const value = metadata[key];
    const chars = sizeOf(value, key);
    if (chars > MAX_METADATA_FIELD_CHARS) {
      throw invalidCorpusFile(
        `metadata field "${key}" holds ${chars} characters, at most ${MAX_METADATA_FIELD_CHARS}; shorten it`,
      );
    }
    const canonical = CANONICAL[field];
    // The frontmatter's alias of the same field (category, tags) must not win over the metadata.
    if (field === "domain") delete data.category;
    if (field === "keywords") delete data.tags;
    data[canonical] = value;
    keyOf.set(canonical, `metadata field "${key}"`);
  }
  return normalizeFrontmatter(data, (key) => keyOf.get(key) ?? `metadata field "${key}"`);
}
