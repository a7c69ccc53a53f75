import type { Assertion, TestCase } from "./promptfoo-shapes.js";
import { loadCorpus } from "../../corpus/load-corpus.js";
import { checkGoldSources, readGoldenSet, type GoldenEntry } from "./golden-set.js";
import { inertTemplateText } from "./inert-template.js";
import { evalModuleRef } from "./module-path.js";
import { CONTRACT_FILES } from "./summarize-results.js";

/** The repository's golden set over the sample corpus (the default of {@link GoldenTestsConfig.golden}). */
export const GOLDEN_SET_PATH = "eval/golden-set.yaml";

/** `config` of the test generator in a promptfoo config (`tests: [{ path: file://…/golden-tests.ts, config }]`). */
export interface GoldenTestsConfig {
  /** The golden set (YAML, see {@link GoldenEntry}). @default "eval/golden-set.yaml" */
  golden?: string;
  /** When given, every gold source must be a chunk of this corpus. @default undefined (not checked) */
  corpus?: string;
}

const js = (file: string, config?: Record<string, unknown>): Assertion => ({ type: "javascript", value: evalModuleRef(`assertions/${file}`), ...(config ? { config } : {}) });

/** Contract checks that hold for every question and variant: a failure fails the case (and promptfoo's exit code). */
export const CONTRACT_ASSERTIONS: Assertion[] = CONTRACT_FILES.map((file) => js(file));

/** Ranking metrics for answerable questions: scores that never fail a case; their means are gated against the baseline. */
export const RANKING_ASSERTIONS: Assertion[] = [js("hit-at-k", { k: 5 }), js("recall-at-k", { k: 5 }), js("mrr-at-10"), js("ndcg-at-10")];

/**
 * Turns one golden question into a promptfoo test: ranking metrics when it has gold sources, the
 * no-answer score when it has none. Only scalars go into `vars` (promptfoo expands list vars
 * into several tests); the gold list and labels travel in `metadata`. The query is made inert
 * for promptfoo's templating ({@link inertTemplateText}) and travels verbatim in `metadata.query`.
 */
export function toTestCase(entry: GoldenEntry): TestCase {
  const { query, domain, kind, split, gold, expected_domain } = entry.vars;
  const answerable = gold.length > 0;
  return {
    description: entry.description,
    vars: { query: inertTemplateText(query), ...(domain ? { domain } : {}) },
    assert: [...CONTRACT_ASSERTIONS, ...(answerable ? RANKING_ASSERTIONS : [js("no-answer")]), js("relevance-judgement")],
    metadata: { query, kind, split, gold, expected_domain: expected_domain ?? "" },
  };
}

/** promptfoo test generator: reads and validates the golden set named in `config` (and its gold sources against the corpus). */
export default async function goldenTests(config: GoldenTestsConfig = {}): Promise<TestCase[]> {
  const file = config.golden ?? GOLDEN_SET_PATH;
  const entries = await readGoldenSet(file);
  if (config.corpus) {
    const corpus = await loadCorpus(config.corpus);
    checkGoldSources(entries, new Set(corpus.chunks.map((chunk) => chunk.source)), file, config.corpus);
  }
  return entries.map(toTestCase);
}
