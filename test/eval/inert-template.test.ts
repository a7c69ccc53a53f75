import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { inertTemplateText } from "../../src/eval/promptfoo/inert-template.js";
import { toTestCase } from "../../src/eval/promptfoo/golden-tests.js";

/** promptfoo's template engine (a dependency of promptfoo, without types of its own). */
const nunjucks = createRequire(import.meta.url)("nunjucks") as { configure(options: { autoescape: boolean }): { renderString(template: string, context: object): string } };

/** What promptfoo does to a test's string vars and then to the prompt `{{query}}` (evaluatorHelpers renderPrompt). */
function renderLikePromptfoo(vars: Record<string, unknown>): string {
  const env = nunjucks.configure({ autoescape: false });
  const rendered = Object.fromEntries(Object.entries(vars).map(([key, value]) => [key, typeof value === "string" ? env.renderString(value, vars) : value]));
  return env.renderString("{{query}}", rendered);
}

const HOSTILE = [
  "{{ 7*7 }} vents",
  "{{ ''.constructor.constructor('return process')().exit(3) }}",
  '{% include "/etc/passwd" %}',
  "{% raw %}x{% endraw %} {% endraw %} {#- comment -#} {{- query -}}",
  "{{query}} and {{ domain }}",
  "file:///etc/passwd",
  "a { b } c }} %} #} {",
  "plain question? <b>&amp;</b> ünïcödé",
];

describe("queries promptfoo renders as nunjucks templates", () => {
  it.each(HOSTILE)("reach the tool verbatim, without running any template: %s", (query) => {
    const vars = { query: inertTemplateText(query) };
    expect(renderLikePromptfoo(vars)).toBe(query);
    expect(String(vars.query).startsWith("file://")).toBe(false);
  });

  it("leaves plain text unchanged", () => {
    expect(inertTemplateText("At what temperature do the roof vents open?")).toBe("At what temperature do the roof vents open?");
  });

  it("puts the escaped query in the test's vars and the verbatim one in its metadata", () => {
    const query = "{{ range(1e9) }}";
    const test = toTestCase({ description: "t", vars: { query, gold: [], kind: "no-answer", split: "holdout", expected_domain: null } });
    expect(test.vars?.query).toBe(inertTemplateText(query));
    expect(test.metadata?.query).toBe(query);
    expect(renderLikePromptfoo(test.vars ?? {})).toBe(query);
  });
});
