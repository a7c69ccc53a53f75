import { isScalar, parseAllDocuments, visit, type Document, type DocumentOptions, type ParseOptions, type ScalarTag, type SchemaOptions, type Tags, type ToJSOptions } from "yaml";
import { errorMessage } from "../errors.js";
import { describeJsonError } from "../shown-value.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { splitFrontmatter } from "./split-frontmatter.js";

/** A file's raw frontmatter fields and its Markdown body. */
export interface ParsedFrontmatter {
  /** The top-level mapping of the frontmatter; empty when there is none. */
  data: Record<string, unknown>;
  body: string;
}

type FrontmatterFormat = "yaml" | "json";

/** Languages accepted after the opening `---`, lower-cased; anything else is refused, never run. */
const FORMATS: Readonly<Record<string, FrontmatterFormat>> = { "": "yaml", yaml: "yaml", yml: "yaml", json: "json" };

const ACCEPTED = 'only YAML ("---", "---yaml", "---yml") and JSON ("---json") frontmatter is read, and frontmatter is never run as code';

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

/** Longest language name quoted in a skip reason. */
const MAX_QUOTED_LANGUAGE = 40;

function quoteLanguage(language: string): string {
  return JSON.stringify(language.length > MAX_QUOTED_LANGUAGE ? `${language.slice(0, MAX_QUOTED_LANGUAGE)}…` : language);
}

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

function parseYaml(block: string): Record<string, unknown> {
  // The leading newline stands for the opening "---" line, so that error positions are file lines.
  const docs = parseAllDocuments(`\n${block}`, YAML_OPTIONS);
  if (Array.isArray(docs) && docs.length === 0) return {}; // comments only
  if (!Array.isArray(docs) || docs.length !== 1) {
    throw invalidCorpusFile("malformed frontmatter: it holds more than one YAML document (a \"---\" line inside it); keep one mapping of fields");
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
}

function parseJson(block: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(block);
  } catch (error) {
    // The engine's message quotes the text around the fault; the position is enough to fix it.
    throw invalidCorpusFile(`malformed frontmatter: ${describeJsonError(error, block)}`);
  }
  return asMapping(value);
}

/**
 * Splits a file (LF line breaks) into frontmatter fields and body. YAML and JSON are parsed as
 * data; any other language after the opening `---` is refused, so frontmatter never runs.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a refused language, malformed YAML or
 * JSON, a top level that is not a mapping, or a frontmatter that is never closed.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const { language, block, body } = splitFrontmatter(text);
  if (language === null || block === null) return { data: {}, body };
  const format = Object.hasOwn(FORMATS, language.toLowerCase()) ? FORMATS[language.toLowerCase()] : undefined;
  if (format === undefined) throw invalidCorpusFile(`frontmatter language ${quoteLanguage(language)} is not accepted: ${ACCEPTED}`);
  if (block.trim().length === 0) return { data: {}, body };
  return { data: format === "yaml" ? parseYaml(block) : parseJson(block), body };
}
