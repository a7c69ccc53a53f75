import type {
  ApiProvider,
  AssertionValueFunction,
  CallApiContextParams,
  GradingResult as PromptfooGradingResult,
  ProviderOptions as PromptfooProviderOptions,
  ProviderResponse as PromptfooProviderResponse,
  TestCase as PromptfooTestCase,
} from "promptfoo";
import { describe, expect, expectTypeOf, it } from "vitest";
import { assertions } from "../../src/eval/assertions/index.js";
import goldenTests from "../../src/eval/promptfoo/golden-tests.js";
import LookupKnowledgeProvider from "../../src/eval/promptfoo/lookup-provider.js";
import type {
  AssertionContext,
  CallApiContext,
  GradingResult,
  ProviderOptions,
  ProviderResponse,
  TestCase,
} from "../../src/eval/promptfoo/promptfoo-shapes.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";
import { join } from "node:path";

// `npm run typecheck` checks these against the pinned promptfoo; the runtime part shows the values
// the harness hands promptfoo have the shapes promptfoo reads.
describe("the promptfoo shapes of lookup-knowledge/eval", () => {
  it("accept promptfoo's own values where the harness takes them", () => {
    expectTypeOf<PromptfooProviderOptions>().toMatchTypeOf<ProviderOptions>();
    expectTypeOf<CallApiContextParams>().toMatchTypeOf<CallApiContext>();
    expectTypeOf<Parameters<AssertionValueFunction>[1]>().toMatchTypeOf<AssertionContext>();
  });

  it("are accepted where promptfoo takes its own", () => {
    expectTypeOf<GradingResult>().toMatchTypeOf<PromptfooGradingResult>();
    expectTypeOf<ProviderResponse>().toMatchTypeOf<PromptfooProviderResponse>();
    expectTypeOf<TestCase>().toMatchTypeOf<PromptfooTestCase>();
    expectTypeOf<LookupKnowledgeProvider>().toMatchTypeOf<ApiProvider>();
    for (const assertion of Object.values(assertions)) expectTypeOf(assertion).toMatchTypeOf<AssertionValueFunction>();
  });

  it("give promptfoo a provider with an id and test cases with javascript assertions and metadata", async () => {
    const provider: ApiProvider = new LookupKnowledgeProvider({ config: { variant: "L0" } });
    expect(provider.id()).toBe("lookup-knowledge:L0");
    const tests: PromptfooTestCase[] = await goldenTests({ golden: join(REPO_ROOT, "eval", "golden-set.yaml") });
    expect(tests.length).toBeGreaterThan(0);
    for (const test of tests) {
      expect(test.assert?.every((assertion) => assertion.type === "javascript" && typeof assertion.value === "string")).toBe(true);
      expect(Array.isArray(test.metadata?.gold)).toBe(true);
    }
  });
});
