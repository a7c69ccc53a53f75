import { describe, expect, it } from "vitest";
import type { Chunk } from "../../src/index.js";
import {
  countFor,
  domainOf,
  groupOf,
  labelChunks,
  percentLabel,
  REST_DOMAIN,
  sampleIds,
  SELECTIVITIES,
} from "../../bench/tasks/filter-labels.js";

const chunk = (i: number): Chunk => ({
  source: `d${i}`,
  file: `d${i}`,
  breadcrumb: [],
  content: `text ${i}`,
  meta: { keywords: [], entities: [], aliases: [] },
});

describe("labelChunks", () => {
  const size = 10_000;
  const { chunks, counts } = labelChunks(Array.from({ length: size }, (_, i) => chunk(i)));

  it("puts group g<s> on exactly a share s of the chunks, g100 on every chunk", () => {
    for (const s of SELECTIVITIES) {
      const group = groupOf(s);
      expect(chunks.filter((c) => c.meta.access?.includes(group)).length, group).toBe(countFor(s, size));
      expect(counts.groups[group]).toBe(countFor(s, size));
    }
    expect(chunks.every((c) => c.meta.access?.includes("g100"))).toBe(true);
    expect(groupOf(0.001)).toBe("g0.1");
    expect(percentLabel(0.001)).toBe("0.1%");
  });

  it("gives disjoint domains of each share below 100%, the rest in one more domain", () => {
    let labelled = 0;
    for (const s of SELECTIVITIES.filter((s) => s < 1)) {
      const n = chunks.filter((c) => c.meta.domain === domainOf(s)).length;
      expect(n).toBe(countFor(s, size));
      labelled += n;
    }
    expect(chunks.filter((c) => c.meta.domain === REST_DOMAIN).length).toBe(size - labelled);
  });

  it("spreads a group over the corpus and is the same on every run", () => {
    const ids = chunks.flatMap((c, i) => (c.meta.access?.includes("g1") ? [i] : []));
    expect(Math.min(...ids)).toBeLessThan(size / 10);
    expect(Math.max(...ids)).toBeGreaterThan(size - size / 10);
    expect(labelChunks(Array.from({ length: size }, (_, i) => chunk(i))).chunks.map((c) => c.meta)).toEqual(
      chunks.map((c) => c.meta),
    );
  });

  it("samples distinct ascending ids", () => {
    const ids = sampleIds(1_000, 100, 7);
    expect(ids.length).toBe(100);
    expect(new Set(ids).size).toBe(100);
    expect([...ids]).toEqual([...ids].sort((a, b) => a - b));
  });
});
