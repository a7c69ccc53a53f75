import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import domainFilter from "./domain-filter.js";
import fallbackReason from "./fallback-reason.js";
import hitAtK from "./hit-at-k.js";
import mrrAt10 from "./mrr-at-10.js";
import ndcgAt10 from "./ndcg-at-10.js";
import noAnswer from "./no-answer.js";
import recallAtK from "./recall-at-k.js";
import relevanceJudgement from "./relevance-judgement.js";
import retrievalLayer from "./retrieval-layer.js";
import traceLine from "./trace-line.js";

/**
 * A promptfoo `javascript` assertion function. It grades one case from the provider's metadata
 * ({@link LookupProviderMetadata}) and the test's golden labels, never from the output text; a
 * case without them fails with a reason, never passes.
 */
export type GoldenAssertion = (output: string, context: AssertionContext) => GradingResult;

/**
 * The golden suite's assertions. Contract checks fail a case; quality scores never do (unless the
 * assertion's `config.min` is set), and the baseline gate compares their per-variant means instead.
 * In a promptfoo config, each is also a module: `file://…/eval/assertions/<kebab-case name>.js`.
 */
export interface GoldenAssertions {
  /** Contract: the L1 domain filter is applied exactly when there is one domain (forced, else the hints' only one), on every L1 block; also scores `domain_hint_match`. */
  domainFilter: GoldenAssertion;
  /** Contract: the fallback reason matches the L1 status, and L1 is disabled exactly in the `L0 only` variant. */
  fallbackReason: GoldenAssertion;
  /** Quality: `hit@k`, 1 when a gold source is in the top `config.k` (default 5), else 0. */
  hitAtK: GoldenAssertion;
  /** Quality: `MRR@10`, the reciprocal rank of the first gold source in the top 10. */
  mrrAt10: GoldenAssertion;
  /** Quality: `nDCG@10` of the evidence order (the first gold source graded 2, the others 1). */
  ndcgAt10: GoldenAssertion;
  /** Quality, for questions without gold sources: `no_answer_low`, 1 when the relevance is `low` or `none`. */
  noAnswer: GoldenAssertion;
  /** Quality: `recall@k`, the share of gold sources in the top `config.k` (default 5). */
  recallAtK: GoldenAssertion;
  /** Quality, per half of the set: `<split>:right_first_rated` (a gold first block rated medium or high) and `<split>:no_answer_rated`; never fails a case. */
  relevanceJudgement: GoldenAssertion;
  /** Contract: the recorded retrieval layer is one the variant can produce and agrees with the evidence's hit reasons. */
  retrievalLayer: GoldenAssertion;
  /** Contract: exactly one trace line for the call, previews of at most 200 characters, no block's full content. */
  traceLine: GoldenAssertion;
}

/** Every assertion of the golden suite, by name (see {@link GoldenAssertions}). */
export const assertions: GoldenAssertions = {
  domainFilter,
  fallbackReason,
  hitAtK,
  mrrAt10,
  ndcgAt10,
  noAnswer,
  recallAtK,
  relevanceJudgement,
  retrievalLayer,
  traceLine,
};
