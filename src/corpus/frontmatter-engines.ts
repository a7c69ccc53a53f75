import { isScalar, parseAllDocuments, visit, type Document, type DocumentOptions, type ParseOptions, type ScalarTag, type SchemaOptions, type Tags, type ToJSOptions } from "yaml";
import { errorMessage } from "../errors.js";
import { describeJsonError } from "../shown-value.js";
import { invalidCorpusFile } from "./corpus-file-error.js";

/** Reads a frontmatter block as plain data: the top-level mapping of its fields. */
export type FrontmatterEngine = (block: string) => Record<string, unknown>;

const NUMBER_TAGS = new Set(["tag:yaml.org,2002:int", "tag:yaml.org,2002:float"]);

function isNumberTag(tag: Tags[number]): tag is ScalarTag {
  return typeof tag === "object" && tag.collection === undefined && NUMBER_TAGS.has(tag.tag);
}

/** Keeps YAML numbers as written (`3.10` stays "3.10", not 3.1): frontmatter fields are text. */
function numbersAsWritten(tags: Tags): Tags {
  return tags.map((tag): Tags[number] => (isNumberTag(tag) ? { ...tag, resolve: (source: string) => source } : tag));
}

/**
 * Plain data only: the YAML 1.2 core schema (a date stays a string), no YAML 1.1 or custom tags
 * (an unresolved tag is refused), no merge keys, bounded alias expansion, no logging. Unique keys
 * are checked by {@link duplicateKey}: the parser's own check is quadratic in the keys of a map.
 */
const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.2",
  schema: "core",
  customTags: numbersAsWritten,
  resolveKnownTags: false,
  merge: false,
  uniqueKeys: false,
  strict: true,
  logLevel: "silent",
};

const TO_JS: ToJSOptions = { maxAliasCount: 100 };

function describe(value: unknown): string {
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

function asMapping(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  throw invalidCorpusFile(`malformed frontmatter: the frontmatter must be a mapping of fields (key: value), got ${describe(value)}`);
}

function firstLine(message: string): string {
  return message.split("\n", 1)[0].replace(/:$/, "");
}

/** The first key that repeats within one mapping of the document, in one pass over it; null when none does. */
function duplicateKey(doc: Document): string | null {
  let found: string | null = null;
  visit(doc, {
    Map(_, map) {
      const keys = new Set<string>();
      for (const { key } of map.items) {
        const name = isScalar(key) ? String(key.value) : String(key);
        if (keys.has(name)) {
          found = name;
          return visit.BREAK;
        }
        keys.add(name);
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The `yaml` engine. gray-matter hands it the block with the rest of the opening line in front
 * (`""` or the language name's blanks, then a line break), so error positions are file lines.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a YAML error or warning, an unresolved
 * tag, a repeated key, too many aliases, more than one document, or a top level that is not a mapping.
 */
export const parseYamlFrontmatter: FrontmatterEngine = (block) => {
  const docs = parseAllDocuments(block, YAML_OPTIONS);
  if (Array.isArray(docs) && docs.length === 0) return {}; // comments only
  if (!Array.isArray(docs) || docs.length !== 1) {
    throw invalidCorpusFile("malformed frontmatter: it holds more than one YAML document (a \"...\" or \"---\" marker inside it); keep one mapping of fields");
  }
  const [doc] = docs;
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw invalidCorpusFile(`malformed frontmatter: ${firstLine(problem.message)}`);
  const repeated = duplicateKey(doc);
  if (repeated !== null) throw invalidCorpusFile(`malformed frontmatter: map keys must be unique, and "${repeated.slice(0, 40)}" repeats`);
  let value: unknown;
  try {
    value = doc.toJS(TO_JS);
  } catch (error) {
    throw invalidCorpusFile(`malformed frontmatter: ${firstLine(errorMessage(error))}`, error);
  }
  return asMapping(value);
};

/**
 * The `json` engine: `JSON.parse`, and a mapping at the top level.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for invalid JSON (its position only, never
 * the text around it) or a top level that is not a mapping.
 */
export const parseJsonFrontmatter: FrontmatterEngine = (block) => {
  let value: unknown;
  try {
    value = JSON.parse(block);
  } catch (error) {
    throw invalidCorpusFile(`malformed frontmatter: ${describeJsonError(error, block)}`);
  }
  return asMapping(value);
};
