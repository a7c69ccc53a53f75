import { describe, expect, it } from "vitest";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { calibratedDefaults, resolveRetrievalOptions, RETRIEVAL_DEFAULTS } from "../../src/graph/resolve-options.js";
import { createLookupKnowledgeTool } from "../../src/tool/lookup-knowledge-tool.js";
import { fakeSource } from "../helpers/retrieval-fakes.js";

describe("resolveRetrievalOptions", () => {
  it("applies every documented default when no option is given", () => {
    expect(resolveRetrievalOptions({})).toEqual({
      maxLimit: 20,
      l0: { enabled: true, k: 20 },
      l1: { enabled: true, k: 20, minScore: 0.05, timeoutMs: 5000 },
      fusion: { l0Weight: 0.8 },
      relevance: { strongCoverage: 0.6, partialCoverage: 0.35, semanticSupport: 0.3, strongSimilarity: 0.7 },
      evidence: { maxBlockChars: 4000, maxTotalChars: 16_000 },
      access: { option: null, timeoutMs: 5000 },
    });
    expect(resolveRetrievalOptions({})).toEqual(RETRIEVAL_DEFAULTS);
  });

  it("keeps the values a caller gives", () => {
    const settings = resolveRetrievalOptions({
      l1: { timeoutMs: 0, k: 50 },
      evidence: { maxBlockChars: 10 },
      relevance: { semanticSupport: 0.8 },
    });
    expect(settings.l1).toEqual({ enabled: true, k: 50, minScore: 0.05, timeoutMs: 0 });
    expect(settings.evidence).toEqual({ maxBlockChars: 10, maxTotalChars: 16_000 });
    expect(settings.relevance.semanticSupport).toBe(0.8);
  });

  it.each([
    [{ l0: { k: 0 } }, /l0\.k must be an integer from 1 to 10000, got 0/],
    [{ maxLimit: 1001 }, /maxLimit must be an integer from 1 to 1000, got 1001/],
    [{ l1: { k: 2.5 } }, /l1\.k must be an integer/],
    [{ l1: { minScore: 2 } }, /l1\.minScore must be a number from -1 to 1, got 2/],
    [{ l1: { timeoutMs: -5 } }, /l1\.timeoutMs must be a number from 0/],
    [{ l1: { timeoutMs: Number.NaN } }, /l1\.timeoutMs .* got NaN/],
    [{ accessTimeoutMs: -1 }, /accessTimeoutMs must be a number from 0/],
    [{ access: { groups: "hr" as unknown as string[] } }, /option access must be \{ groups: string\[\] \}/],
    [{ l1: { enabled: "no" as unknown as boolean } }, /l1\.enabled must be true or false/],
    [{ fusion: { l0Weight: 1.5 } }, /fusion\.l0Weight must be a number from 0 to 1/],
    [{ evidence: { maxBlockChars: 0 } }, /evidence\.maxBlockChars must be an integer from 1/],
    [{ evidence: { maxTotalChars: "10" as unknown as number } }, /evidence\.maxTotalChars .* got "10"/],
    [{ relevance: { strongCoverage: 7 } }, /relevance\.strongCoverage/],
  ])("refuses %j with INVALID_OPTION", (options, message) => {
    expect(() => resolveRetrievalOptions(options)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringMatching(message) }),
    );
  });
});

describe("creating the graph or the tool with bad options", () => {
  const throwing = {
    get enabled(): boolean {
      throw new Error("getter boom");
    },
  };

  it.each([
    ["no options", undefined, /must be an object/],
    ["null", null, /must be an object/],
    ["no knowledge base", {}, /option knowledgeBase must be a KnowledgeBase/],
    ["a knowledge base without layers", { knowledgeBase: {} }, /option knowledgeBase must be a KnowledgeBase/],
    ["an option whose getter throws", { knowledgeBase: fakeSource(), l1: throwing }, /cannot be read \(getter boom\)/],
    [
      "a trace path that is a number",
      { knowledgeBase: fakeSource(), tracePath: 42 },
      /option tracePath must be a file path or null/,
    ],
  ])("refuses %s with INVALID_OPTION, graph and tool alike", (_name, options, message) => {
    for (const create of [createRetrievalGraph, createLookupKnowledgeTool] as ((options: unknown) => unknown)[]) {
      expect(() => create(options)).toThrow(
        expect.objectContaining({
          name: "LookupKnowledgeError",
          code: "INVALID_OPTION",
          message: expect.stringMatching(message),
        }),
      );
    }
  });
});

describe("calibratedDefaults", () => {
  it("reads each calibrated value once, so a getter that changes its answer cannot slip a bad value past the check", () => {
    let reads = 0;
    const calibration = {
      get l0Weight() {
        reads++;
        return reads === 1 ? 0.5 : Number.NaN;
      },
      relevance: { strongCoverage: 0.7, partialCoverage: 0.4, semanticSupport: 0.2, strongSimilarity: 0.6 },
    };

    expect(calibratedDefaults(calibration).fusion.l0Weight).toBe(0.5);
    expect(reads).toBe(1);
  });

  it("falls back to the built-in value for anything out of range or not a number", () => {
    const bad = {
      l0Weight: "0.5",
      relevance: { strongCoverage: 2, partialCoverage: Number.NaN, semanticSupport: -0.2, strongSimilarity: Infinity },
    } as unknown as Parameters<typeof calibratedDefaults>[0];
    const d = calibratedDefaults(bad);

    expect(d.fusion.l0Weight).toBe(RETRIEVAL_DEFAULTS.fusion.l0Weight);
    expect(d.relevance).toEqual({ ...RETRIEVAL_DEFAULTS.relevance, semanticSupport: -0.2 });
  });
});
