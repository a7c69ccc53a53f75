import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { goldenEvalConfig } from "../../src/eval/promptfoo/golden-eval-config.js";

const REPO = { golden: "eval/golden-set.yaml", corpus: "corpus", baseline: "eval/baseline.json", out: "eval/results/promptfoo", variants: ["L0", "L1", "L0+L1"] as const };

/** Every `file://` module a config names, without the `:function` suffix. */
function modules(config: unknown): string[] {
  return [...JSON.stringify(config).matchAll(/file:\/\/([^":]+)/g)].map((match) => match[1]);
}

describe("the generated promptfoo config", () => {
  it("names the package's modules by absolute paths that exist, so it runs from any folder", () => {
    const config = goldenEvalConfig(REPO);
    const paths = modules(config);
    expect(paths).toHaveLength(5);
    for (const path of paths) {
      expect(path.startsWith("/"), path).toBe(true);
      expect(existsSync(path), path).toBe(true);
    }
    expect(config.extensions).toEqual([`file://${resolve("src/eval/promptfoo/baseline-gate.ts")}:afterAll`]);
  });

  it("passes the golden file, corpus, baseline and out folder through config, as absolute paths", () => {
    const config = goldenEvalConfig({ ...REPO, updateBaseline: true });
    expect(config.tests).toEqual([{ path: expect.stringMatching(/golden-tests\.ts$/), config: { golden: resolve("eval/golden-set.yaml"), corpus: resolve("corpus") } }]);
    expect(config.metadata).toEqual({ lookupKnowledgeGate: { baseline: resolve("eval/baseline.json"), out: resolve("eval/results/promptfoo"), updateBaseline: true } });
    expect(config.providers).toContainEqual({
      id: expect.stringMatching(/lookup-provider\.ts$/),
      label: "L0+L1",
      config: { variant: "L0+L1", corpusDir: resolve("corpus"), traceDir: resolve("eval/results/promptfoo/traces") },
    });
  });

  it("names each run after its corpus and golden file, so promptfoo's history tells runs apart", () => {
    expect(goldenEvalConfig(REPO).description).toBe("lookup_knowledge on corpus: golden-set.yaml");
    expect(goldenEvalConfig({ ...REPO, golden: "x/support.yaml", corpus: "docs" }).description).toBe("lookup_knowledge on docs: support.yaml");
  });

  it("is what the repository's promptfooconfig.yaml says, with relative paths (plain `npx promptfoo eval` runs the same suite)", async () => {
    const root = parse(await readFile("promptfooconfig.yaml", "utf8")) as Record<string, unknown>;
    const absolute = (value: unknown): unknown =>
      typeof value === "string" && value.startsWith("file://") ? `file://${resolve(value.slice(7))}` : typeof value === "string" && /^(eval|corpus)\b/.test(value) ? resolve(value) : Array.isArray(value) ? value.map(absolute) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, absolute(v)])) : value;
    const { description: _ownName, metadata, ...rest } = absolute(root) as Record<string, unknown>;
    const { description: _generatedName, metadata: generatedMetadata, ...generated } = goldenEvalConfig(REPO);
    expect(rest).toEqual(generated);
    // The root config's gate writes no gate.json (that file is the CLI's); the baseline is the same.
    expect((metadata as { lookupKnowledgeGate: unknown }).lookupKnowledgeGate).toEqual({ baseline: (generatedMetadata as { lookupKnowledgeGate: { baseline: string } }).lookupKnowledgeGate.baseline });
  });
});
