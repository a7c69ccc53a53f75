import { readFile } from "node:fs/promises";
import type { Assertion, TestCase } from "promptfoo";
import { parse } from "yaml";
import type { GoldenVars } from "./golden-case.js";

/** The golden set: questions with gold sources over the sample corpus. */
export const GOLDEN_SET_PATH = "eval/golden-set.yaml";

const js = (file: string, config?: Record<string, unknown>): Assertion => ({ type: "javascript", value: `file://src/eval/assertions/${file}`, ...(config ? { config } : {}) });

/** Contract checks that hold for every question and variant. */
export const CONTRACT_ASSERTIONS: Assertion[] = [js("retrieval-layer.ts"), js("domain-filter.ts"), js("fallback-reason.ts"), js("trace-line.ts")];

/** Ranking metrics for answerable questions; their means are gated against the baseline. */
export const RANKING_ASSERTIONS: Assertion[] = [js("hit-at-k.ts", { k: 5 }), js("recall-at-k.ts", { k: 5 }), js("mrr-at-10.ts"), js("ndcg-at-10.ts")];

/**
 * Turns one golden question into a promptfoo test: ranking metrics when it has gold sources, the
 * no-answer check when it has none. Only scalars go into `vars` (promptfoo expands list vars
 * into several tests); the gold list and labels travel in `metadata`.
 */
export function toTestCase(entry: { description: string; vars: GoldenVars }): TestCase {
  const { query, domain, kind, split, gold, expected_domain } = entry.vars;
  const answerable = gold.length > 0;
  return {
    description: entry.description,
    vars: { query, ...(domain ? { domain } : {}) },
    assert: [...CONTRACT_ASSERTIONS, ...(answerable ? RANKING_ASSERTIONS : [js("no-answer.ts")]), js("relevance-judgement.ts")],
    metadata: { kind, split, gold, expected_domain: expected_domain ?? "" },
  };
}

/** promptfoo test generator: `tests: file://eval/promptfoo/golden-tests.ts`. */
export default async function goldenTests(): Promise<TestCase[]> {
  const entries = parse(await readFile(GOLDEN_SET_PATH, "utf8")) as { description: string; vars: GoldenVars }[];
  return entries.map(toTestCase);
}
