import { MAX_GROUP_CHARS } from "../access/access-scope.js";
import type { DocumentMeta } from "../types.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { normalizeDomain } from "../text/normalize-domain.js";

/** How an error names a field: `frontmatter field "tags"`. */
export type FieldName = (key: string) => string;

const frontmatterField: FieldName = (key) => `frontmatter field "${key}"`;

function optionalString(data: Record<string, unknown>, nameOf: FieldName, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string" || typeof value === "number") {
      const text = String(value).trim();
      if (text.length > 0) return text;
      continue;
    }
    throw invalidCorpusFile(`${nameOf(key)} must be a string, got ${Array.isArray(value) ? "a list" : typeof value}`);
  }
  return undefined;
}

function stringList(data: Record<string, unknown>, nameOf: FieldName, ...keys: string[]): string[] {
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
    if (items === null || !items.every((item) => typeof item === "string" || typeof item === "number")) {
      throw invalidCorpusFile(`${nameOf(key)} must be a list of strings, got ${Array.isArray(value) ? "a list with non-string items" : typeof value}`);
    }
    return [...new Set(items.map((item) => String(item).trim()).filter((item) => item.length > 0))];
  }
  return [];
}

/**
 * The `access` field: a list of group names or a comma-separated string, trimmed, sorted and
 * unique; undefined when the file has none. A field that is present but empty (`access:`, `~`,
 * `null`) or holds only blanks is an empty list (nobody reads the file), never "no label": a file
 * fails closed, not open.
 */
function accessList(data: Record<string, unknown>, nameOf: FieldName): string[] | undefined {
  if (!Object.hasOwn(data, "access")) return undefined;
  if (data.access === null || data.access === undefined) return [];
  const groups = stringList(data, nameOf, "access");
  const long = groups.find((group) => group.length > MAX_GROUP_CHARS);
  if (long !== undefined) throw invalidCorpusFile(`${nameOf("access")} names a group longer than ${MAX_GROUP_CHARS} characters; use short group names`);
  return groups.sort();
}

/**
 * Folds a file's raw frontmatter into {@link DocumentMeta}: `category` is an alias of `domain`,
 * `tags` of `keywords`; a comma-separated string counts as a list. `access` lists the groups that
 * may read the file (see {@link accessList}). Unknown keys are ignored.
 * Text fields take strings and numbers (YAML numbers arrive as written, see `parseFrontmatter`);
 * a boolean, list or mapping where text is expected is refused. Null fields count as absent, except
 * `access`: a present but empty `access` makes the file readable by nobody.
 * `nameOf` names a field in errors (`frontmatter field "tags"` by default; a LangChain
 * document's metadata fields are named by their own keys).
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` when a known field has the wrong type.
 */
export function normalizeFrontmatter(data: Record<string, unknown>, nameOf: FieldName = frontmatterField): DocumentMeta {
  const title = optionalString(data, nameOf, "title");
  const domain = normalizeDomain(optionalString(data, nameOf, "domain", "category"));
  const access = accessList(data, nameOf);
  return {
    ...(title !== undefined ? { title } : {}),
    ...(domain !== null ? { domain } : {}),
    keywords: stringList(data, nameOf, "keywords", "tags"),
    entities: stringList(data, nameOf, "entities"),
    aliases: stringList(data, nameOf, "aliases"),
    ...(access !== undefined ? { access } : {}),
  };
}
