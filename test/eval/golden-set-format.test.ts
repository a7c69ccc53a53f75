import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkGoldSources, MAX_GOLDEN_SET_BYTES, parseGoldenSet, readGoldenSet } from "../../src/eval/promptfoo/golden-set.js";

const FILE = "my/golden.yaml";

function errorOf(run: () => unknown): LookupKnowledgeError {
  try {
    run();
  } catch (error) {
    if (error instanceof LookupKnowledgeError) return error;
    throw error;
  }
  throw new Error("expected a LookupKnowledgeError");
}

describe("the golden-set format", () => {
  it("reads the documented fields and fills the defaults: split holdout, kind from the gold list, no expected domain", () => {
    const entries = parseGoldenSet(
      `- description: refunds\n  vars: { query: "refund window?", gold: [billing/refunds.md#window], domain: billing }\n- description: moon\n  vars: { query: "weather on the moon", gold: [] }\n`,
      FILE,
    );
    expect(entries).toEqual([
      { description: "refunds", vars: { query: "refund window?", gold: ["billing/refunds.md#window"], kind: "question", split: "holdout", expected_domain: null, domain: "billing" } },
      { description: "moon", vars: { query: "weather on the moon", gold: [], kind: "no-answer", split: "holdout", expected_domain: null } },
    ]);
  });

  it.each([
    ["bad YAML", "- description: [unclosed\n", /golden set my\/golden.yaml: is not valid YAML/],
    ["not a list", "query: refunds\n", /must be a non-empty YAML list/],
    ["a missing query", "- description: a\n  vars: { gold: [] }\n", /entry 1 \("a"\) has no `vars.query`/],
    ["gold that is not a list", "- description: a\n  vars: { query: q, gold: billing/refunds.md#window }\n", /entry 1 \("a"\): `vars.gold` must be a list of chunk sources/],
    ["an unknown split", "- description: a\n  vars: { query: q, gold: [], split: test }\n", /vars.split must be tune or holdout, got "test"/],
    ["a domain promptfoo would template", '- description: a\n  vars: { query: q, gold: [], domain: "{{ 7*7 }}" }\n', /vars.domain "\{\{ 7\*7 \}\}" may not contain "\{" or start with file:\/\//],
    ["a YAML alias bomb", `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`, /is not valid YAML/],
    ["a repeated description", "- description: a\n  vars: { query: q, gold: [] }\n- description: a\n  vars: { query: r, gold: [] }\n", /the description "a" is used twice/],
  ])("rejects %s with one line naming the file", (_name, text, message) => {
    const error = errorOf(() => parseGoldenSet(text, FILE));
    expect(error.code).toBe("GOLDEN_SET_INVALID");
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("\n");
  });

  it("rejects gold sources the corpus does not have, listing them, because they would silently zero the metrics", () => {
    const entries = parseGoldenSet("- description: a\n  vars: { query: q, gold: [billing/refunds.md#window, billing/gone.md#top] }\n", FILE);
    const error = errorOf(() => checkGoldSources(entries, new Set(["billing/refunds.md#window"]), FILE, "kb"));
    expect(error.message).toBe(
      "lookup-knowledge: golden set my/golden.yaml: 1 gold source is not in the corpus kb: billing/gone.md#top (a); write them as the tool's evidence names them (<file relative to the corpus>#<heading slug>).",
    );
    expect(() => checkGoldSources(entries, new Set(["billing/refunds.md#window", "billing/gone.md#top"]), FILE, "kb")).not.toThrow();
  });

  it("reads a golden set from a file, and stops at its size limit on an endless one like /dev/zero instead of exhausting memory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lk-golden-"));
    try {
      const file = join(dir, "golden.yaml");
      await writeFile(file, "- description: a\n  vars: { query: q, gold: [] }\n");
      expect((await readGoldenSet(file)).map((entry) => entry.vars.query)).toEqual(["q"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await expect(readGoldenSet("/dev/zero")).rejects.toThrow(`golden set /dev/zero: is larger than ${MAX_GOLDEN_SET_BYTES / 1024 / 1024} MiB`);
  });
});
