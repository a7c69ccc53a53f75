/**
 * The parts of promptfoo's types that the harness reads and returns, declared here so that the
 * declarations of `lookup-knowledge/eval` type-check in an app without promptfoo (an optional peer
 * dependency: most users of the metrics and the BEIR runner never install it). Each shape is
 * structurally compatible with promptfoo's own type of the same role: promptfoo's value is
 * accepted where a shape is taken, and a shape is accepted where promptfoo takes its own
 * (`test/eval/promptfoo-shapes.test.ts` checks both directions against the pinned promptfoo).
 */

/** What an assertion function reads of promptfoo's `AssertionValueFunctionContext`. */
export interface AssertionContext {
  /** The test's vars (`query`, `domain`). */
  vars: Record<string, unknown>;
  /** The test case; its `metadata` carries the golden labels (`gold`, `kind`, `split`, ...). */
  test: { metadata?: unknown };
  /** The assertion's own `config` from the promptfoo config (`k`, `min`). */
  config?: Record<string, unknown>;
  /** The provider's response; its `metadata` is the provider's `LookupProviderMetadata`. */
  providerResponse?: { metadata?: unknown };
  /** promptfoo's shortcut to `providerResponse.metadata`. */
  metadata?: unknown;
}

/** An assertion's verdict, as promptfoo's `GradingResult` holds it. */
export interface GradingResult {
  /** Whether the case passes this assertion. */
  pass: boolean;
  /** The score in [0, 1]: the metric's value for ranking metrics, 1 or 0 for contract checks. */
  score: number;
  /** One line saying why, shown in promptfoo's tables. */
  reason: string;
  /** Named metric values that promptfoo averages per provider (`ndcg@10`, `hit@5`, ...). */
  namedScores?: Record<string, number>;
}

/** A promptfoo assertion that runs one of the harness's assertion modules. */
export interface Assertion {
  /** Always `javascript`: the value names a module whose default export grades the case. */
  type: "javascript";
  /** `file://` reference to the assertion module. */
  value: string;
  /** The assertion's options (`k`, `min`). */
  config?: Record<string, unknown>;
}

/** A promptfoo test case made from one golden question. */
export interface TestCase {
  /** The question's description from the golden set. */
  description?: string;
  /** Scalars only: the query (inert for promptfoo's templating) and the forced domain, when set. */
  vars: Record<string, string>;
  /** The contract checks and the ranking (or no-answer) metrics for this question. */
  assert: Assertion[];
  /** The golden labels the assertions read: `query` verbatim, `kind`, `split`, `gold`, `expected_domain`. */
  metadata: Record<string, unknown>;
}

/** What the provider's constructor reads of promptfoo's `ProviderOptions`. */
export interface ProviderOptions {
  /** The provider's id in results. */
  id?: string;
  /** The label in promptfoo's tables. */
  label?: string;
  /** The provider's `config` from the promptfoo config (`LookupProviderConfig`). */
  config?: unknown;
}

/** What `callApi` reads of promptfoo's `CallApiContextParams`. */
export interface CallApiContext {
  /** The test's vars; `domain`, when a non-empty string, is forced on the lookup. */
  vars?: Record<string, unknown>;
}

/** The provider's answer, as promptfoo's `ProviderResponse` holds it. */
export interface ProviderResponse {
  /** The evidence text the model would see. */
  output?: string;
  /** Why the lookup failed; set instead of `output`. */
  error?: string;
  /** Structure for the assertions, out of band (`LookupProviderMetadata`). */
  metadata?: Record<string, unknown>;
}
