import { describe, expect, it } from "vitest";
import {
  boundEvidence,
  boundHints,
  boundHitReasons,
  MAX_FIELD_CHARS,
  MAX_LIST_ITEMS,
} from "../../src/graph/bound-evidence.js";
import type { EvidenceBlock } from "../../src/types.js";

function block(content: string, fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return { source: `s${content.length}.md#top`, retrievalLayer: "L0", content, hitReasons: [], ...fields };
}

describe("boundEvidence", () => {
  it("leaves blocks within the caps unchanged and unmarked", () => {
    const blocks = [block("short"), block("also short")];
    const { blocks: bounded, truncated } = boundEvidence(blocks, { maxBlockChars: 100, maxTotalChars: 100 });
    expect(truncated).toBe(false);
    expect(bounded).toEqual(blocks);
  });

  it("cuts one block to the per-block cap and says how much it holds", () => {
    const { blocks, truncated } = boundEvidence([block("x".repeat(50_000_000))], {
      maxBlockChars: 4000,
      maxTotalChars: 16_000,
    });
    expect(truncated).toBe(true);
    expect(blocks[0].content).toHaveLength(4000);
    expect(blocks[0].truncated).toEqual({ shownChars: 4000, totalChars: 50_000_000 });
  });

  it("gives later blocks what earlier ones left of the total cap, down to nothing", () => {
    const { blocks } = boundEvidence([block("a".repeat(3000)), block("b".repeat(3000)), block("c".repeat(3000))], {
      maxBlockChars: 4000,
      maxTotalChars: 5000,
    });
    expect(blocks.map((b) => b.content.length)).toEqual([3000, 2000, 0]);
    expect(blocks.map((b) => b.truncated?.totalChars)).toEqual([undefined, 3000, 3000]);
    expect(blocks.reduce((sum, b) => sum + b.content.length, 0)).toBeLessThanOrEqual(5000);
  });

  it("cuts at a line end when one is close to the cap", () => {
    const content = `${"a".repeat(90)}\n${"b".repeat(50)}`;
    const { blocks } = boundEvidence([block(content)], { maxBlockChars: 100, maxTotalChars: 100 });
    expect(blocks[0].content).toBe("a".repeat(90));
  });

  it("never ends a cut inside a surrogate pair", () => {
    const { blocks } = boundEvidence([block("😀".repeat(100))], { maxBlockChars: 51, maxTotalChars: 1000 });
    expect(blocks[0].content).toBe("😀".repeat(25));
  });

  it("bounds titles, headings and hit reasons of a block", () => {
    const long = "t".repeat(1_000_000);
    const { blocks } = boundEvidence(
      [block("x", { title: long, breadcrumb: [long, long], hitReasons: [`L0:title:${long}`] })],
      { maxBlockChars: 10, maxTotalChars: 10 },
    );
    expect(blocks[0].title).toHaveLength(MAX_FIELD_CHARS);
    expect(blocks[0].breadcrumb?.every((heading) => heading.length === MAX_FIELD_CHARS)).toBe(true);
    expect(blocks[0].hitReasons[0]).toHaveLength(MAX_FIELD_CHARS);
  });
});

describe("boundHitReasons", () => {
  it("keeps every body, BM25 and L1 reason and summarises hint reasons beyond the cap", () => {
    const reasons = [
      ...Array.from({ length: 30 }, (_, i) => `L0:keyword:k${i}`),
      "L0:body:a,b",
      "L0:bm25:3.00",
      "L1:similarity:0.50",
      "L1:domain_filter:billing",
    ];
    const bounded = boundHitReasons(reasons);
    expect(bounded.filter((reason) => reason.startsWith("L0:keyword:"))).toHaveLength(MAX_LIST_ITEMS);
    expect(bounded).toEqual(
      expect.arrayContaining([
        "L0:body:a,b",
        "L0:bm25:3.00",
        "L1:similarity:0.50",
        "L1:domain_filter:billing",
        "L0:more_hints:10",
      ]),
    );
  });
});

describe("boundHints", () => {
  it("cuts every hint list to its cap and every entry to its length", () => {
    const many = Array.from({ length: 500 }, (_, i) => `${i}-${"k".repeat(1000)}`);
    const hints = boundHints({ titles: many, keywords: many, domains: many, entities: many });
    for (const list of Object.values(hints) as string[][]) {
      expect(list).toHaveLength(MAX_LIST_ITEMS);
      expect(list.every((entry) => entry.length <= MAX_FIELD_CHARS)).toBe(true);
    }
  });

  it("cuts the domain evidence like the domains and keeps its numbers", () => {
    const many = Array.from({ length: 500 }, (_, i) => `${i}-${"k".repeat(1000)}`);
    const domainEvidence = many.map((domain, i) => ({ domain, strength: 1, files: i + 1 }));
    const hints = boundHints({ titles: [], keywords: [], domains: many, entities: [], domainEvidence });
    expect(hints.domainEvidence).toHaveLength(MAX_LIST_ITEMS);
    expect(hints.domainEvidence?.map(({ domain }) => domain)).toEqual(hints.domains);
    expect(hints.domainEvidence?.map(({ files }) => files)).toEqual(
      domainEvidence.slice(0, MAX_LIST_ITEMS).map(({ files }) => files),
    );
  });

  it("adds no domain evidence to hints that had none", () => {
    expect(boundHints({ titles: [], keywords: [], domains: ["billing"], entities: [] })).toEqual({
      titles: [],
      keywords: [],
      domains: ["billing"],
      entities: [],
    });
  });
});
