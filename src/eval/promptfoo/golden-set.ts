import { open } from "node:fs/promises";
import { parse } from "yaml";
import { errorMessage, LookupKnowledgeError } from "../../errors.js";
import type { GoldenVars } from "./golden-case.js";
import { inertTemplateText } from "./inert-template.js";

/**
 * One question of a golden set, as written in YAML:
 *
 * ```yaml
 * - description: "refunds-01: how long a refund takes"   # unique; names the case in reports
 *   vars:
 *     query: "How long until a refund reaches the card?"  # required
 *     gold: [billing/refunds.md#refund-window]            # required list of chunk sources, best first; [] = no answer
 *     domain: billing                                     # optional: forces the tool's domain
 *     kind: paraphrase                                    # optional label, reported per kind
 *     split: holdout                                      # optional: tune | holdout (default holdout)
 *     expected_domain: billing                            # optional: scores domain_hint_match
 * ```
 *
 * A chunk source is `<file path relative to the corpus>#<heading slug>`, as the tool's evidence names it.
 */
export interface GoldenEntry {
  /** The case's name in reports, unique in the set (`case-<n>` when the entry has none). */
  description: string;
  /** The question and its labels, with the defaults applied. */
  vars: GoldenVars;
}

function fail(file: string, message: string): never {
  throw new LookupKnowledgeError("GOLDEN_SET_INVALID", `golden set ${file}: ${message}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function optionalString(file: string, where: string, vars: Record<string, unknown>, key: string): string | undefined {
  const value = vars[key];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") fail(file, `${where}: vars.${key} must be a string, got ${JSON.stringify(value)}.`);
  return value;
}

function toEntry(file: string, item: unknown, index: number): GoldenEntry {
  const where = `entry ${index + 1}`;
  if (!isRecord(item) || !isRecord(item.vars)) fail(file, `${where} needs \`vars:\` with at least \`query\` and \`gold\` (see docs/evaluation.md).`);
  const vars = item.vars;
  const description = typeof item.description === "string" && item.description.trim() !== "" ? item.description : `case-${index + 1}`;
  const named = `${where} ("${description}")`;
  if (typeof vars.query !== "string" || vars.query.trim() === "") fail(file, `${named} has no \`vars.query\`; add the question as a string.`);
  if (!Array.isArray(vars.gold) || vars.gold.some((source) => typeof source !== "string")) {
    fail(file, `${named}: \`vars.gold\` must be a list of chunk sources (use \`gold: []\` for a question the corpus cannot answer).`);
  }
  const split = optionalString(file, named, vars, "split") ?? "holdout";
  if (split !== "tune" && split !== "holdout") fail(file, `${named}: vars.split must be tune or holdout, got "${split}".`);
  const gold = vars.gold as string[];
  const domain = optionalString(file, named, vars, "domain");
  // promptfoo would template a domain var (the query is escaped instead; a domain is a name).
  if (domain && inertTemplateText(domain) !== domain) fail(file, `${named}: vars.domain ${JSON.stringify(domain)} may not contain "{" or start with file://; write the domain's name.`);
  return {
    description,
    vars: {
      query: vars.query,
      gold,
      kind: optionalString(file, named, vars, "kind") ?? (gold.length === 0 ? "no-answer" : "question"),
      split,
      expected_domain: optionalString(file, named, vars, "expected_domain") ?? null,
      ...(domain ? { domain } : {}),
    },
  };
}

/**
 * Parses and validates a golden set (pure): a YAML list of {@link GoldenEntry}.
 * @throws LookupKnowledgeError `GOLDEN_SET_INVALID`, one line naming the file, the entry and the fix.
 */
export function parseGoldenSet(text: string, file: string): GoldenEntry[] {
  let data: unknown;
  try {
    // Warnings (an unresolved tag, say) would go to the console, quoting the file's line.
    data = parse(text, { logLevel: "error" });
  } catch (error) {
    fail(file, `is not valid YAML (${errorMessage(error).split("\n")[0]}).`);
  }
  if (!Array.isArray(data) || data.length === 0) fail(file, "must be a non-empty YAML list of `- description: ... vars: {query, gold}` entries.");
  const entries = data.map((item, index) => toEntry(file, item, index));
  const seen = new Set<string>();
  for (const { description } of entries) {
    if (seen.has(description)) fail(file, `the description "${description}" is used twice; descriptions name cases in reports and must be unique.`);
    seen.add(description);
  }
  return entries;
}

/** Most bytes a golden set may have (thousands of questions fit in a few hundred KB). */
export const MAX_GOLDEN_SET_BYTES = 16 * 1024 * 1024;

/** Reads at most `limit` + 1 bytes, so that /dev/zero or a runaway pipe cannot exhaust memory; pipes (`<(…)`) still work. */
async function readCapped(file: string, limit: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= limit) {
      const chunk = Buffer.alloc(Math.min(1024 * 1024, limit + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    return Buffer.concat(chunks);
  } finally {
    await handle.close();
  }
}

/** Reads and validates a golden set file. @throws LookupKnowledgeError `GOLDEN_SET_INVALID` */
export async function readGoldenSet(file: string): Promise<GoldenEntry[]> {
  let bytes: Buffer;
  try {
    bytes = await readCapped(file, MAX_GOLDEN_SET_BYTES);
  } catch (error) {
    fail(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}); pass an existing YAML file to --golden.`);
  }
  if (bytes.length > MAX_GOLDEN_SET_BYTES) fail(file, `is larger than ${MAX_GOLDEN_SET_BYTES / 1024 / 1024} MiB; pass a YAML list of questions to --golden.`);
  return parseGoldenSet(bytes.toString("utf8"), file);
}

/**
 * Every gold source must be a chunk of the corpus: an unknown one silently zeros the metrics.
 * @throws LookupKnowledgeError `GOLDEN_SET_INVALID` listing the first unknown sources.
 */
export function checkGoldSources(entries: readonly GoldenEntry[], sources: ReadonlySet<string>, file: string, corpusDir: string): void {
  const missing = entries.flatMap(({ description, vars }) => vars.gold.filter((source) => !sources.has(source)).map((source) => `${source} (${description})`));
  if (missing.length === 0) return;
  const shown = missing.slice(0, 3).join(", ");
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : "";
  fail(file, `${missing.length} gold source${missing.length === 1 ? " is" : "s are"} not in the corpus ${corpusDir}: ${shown}${more}; write them as the tool's evidence names them (<file relative to the corpus>#<heading slug>).`);
}
