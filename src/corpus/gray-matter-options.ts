import { invalidCorpusFile } from "./corpus-file-error.js";
import { parseJsonFrontmatter, parseYamlFrontmatter, type FrontmatterEngine } from "./frontmatter-engines.js";

/** What {@link grayMatterOptions} hands gray-matter: frozen, since one object serves every file of a language. */
export interface GrayMatterOptions {
  readonly excerpt: () => string;
  readonly engines: Readonly<Record<string, FrontmatterEngine>>;
}

/** Languages accepted after the opening `---`, lower-cased, and the engine that reads each; anything else is refused, never run. */
const ENGINES: Readonly<Record<string, FrontmatterEngine>> = { "": parseYamlFrontmatter, yaml: parseYamlFrontmatter, yml: parseYamlFrontmatter, json: parseJsonFrontmatter };

const ACCEPTED = 'only YAML ("---", "---yaml", "---yml") and JSON ("---json") frontmatter is read, and frontmatter is never run as code';

/**
 * The names gray-matter resolves to an engine of its own (`javascript` evaluates the block): each is
 * mapped to a refusal, so that no call can reach those engines even past the language check.
 */
const GRAY_MATTER_CODE_LANGUAGES = ["javascript", "js", "coffee", "coffeescript", "cson", "toml"];

/** Longest language name quoted in a skip reason. */
const MAX_QUOTED_LANGUAGE = 40;

function quoteLanguage(language: string): string {
  return JSON.stringify(language.length > MAX_QUOTED_LANGUAGE ? `${language.slice(0, MAX_QUOTED_LANGUAGE)}…` : language);
}

function refusedLanguage(language: string) {
  return invalidCorpusFile(`frontmatter language ${quoteLanguage(language)} is not accepted: ${ACCEPTED}`);
}

const REFUSING_ENGINES: Readonly<Record<string, FrontmatterEngine>> = Object.fromEntries(
  GRAY_MATTER_CODE_LANGUAGES.map((language) => [
    language,
    () => {
      throw refusedLanguage(language);
    },
  ]),
);

/** gray-matter's excerpt step replaced by one that does nothing: its default one runs when the frontmatter sets `excerpt_separator`. */
const NO_EXCERPT = () => "";

/**
 * The accepted language's engine under the name gray-matter looks up for it (the name as written,
 * `yaml` for none), beside refusals for gray-matter's own code engines. gray-matter copies its
 * options before use and never writes to them; freezing makes any write throw rather than leak
 * into the next file.
 */
function frozenOptions(language: string, engine: FrontmatterEngine): GrayMatterOptions {
  const engines = Object.freeze({ ...REFUSING_ENGINES, [language === "" ? "yaml" : language]: engine });
  return Object.freeze({ excerpt: NO_EXCERPT, engines });
}

/** Built once for the usual spellings; another spelling of an accepted language ("YAML", "Json") gets its own per file. */
const USUAL_SPELLINGS: ReadonlyMap<string, GrayMatterOptions> = new Map(
  Object.entries(ENGINES).map(([language, engine]) => [language, frozenOptions(language, engine)]),
);

/**
 * gray-matter's options for a frontmatter whose language (`matter.language(text).name`) is
 * `language`. Passing options at all also keeps gray-matter's cache off: it caches a parse by its
 * input, and hands every caller the same `data`, only for calls without options.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a language other than YAML and JSON.
 */
export function grayMatterOptions(language: string): GrayMatterOptions {
  const usual = USUAL_SPELLINGS.get(language);
  if (usual !== undefined) return usual;
  const key = language.toLowerCase();
  const engine = Object.hasOwn(ENGINES, key) ? ENGINES[key] : undefined;
  if (engine === undefined) throw refusedLanguage(language);
  return frozenOptions(language, engine);
}
