import { describe, expect, it } from "vitest";
import { planUpdate } from "../../src/knowledge-base/plan-update.js";
import type { Chunk } from "../../src/types.js";

function chunk(file: string, content: string): Chunk {
  return {
    source: `${file}#${content}`,
    file,
    breadcrumb: [],
    content,
    meta: { keywords: [], entities: [], aliases: [] },
  };
}
const text = (c: Chunk) => c.content;

describe("planUpdate", () => {
  it("keeps the chunks of unchanged files and of unchanged sections, and adds only new text", () => {
    const a1 = chunk("a.md", "one");
    const a2 = chunk("a.md", "two");
    const b1 = chunk("b.md", "three");
    const c1 = chunk("c.md", "four");
    const plan = planUpdate(
      [a1, a2, b1, c1],
      [a1, a2, chunk("b.md", "three"), chunk("b.md", "edited"), chunk("d.md", "new")],
      text,
    );
    expect(Array.from(plan.renumber)).toEqual([0, 1, 2, -1]);
    expect(plan.added).toEqual([3, 4]);
    expect(plan.kept).toBe(3);
  });

  it("never keeps chunks out of order: a section moved before others counts as new", () => {
    const old = [chunk("a.md", "x"), chunk("a.md", "y"), chunk("a.md", "z")];
    const plan = planUpdate(old, [chunk("a.md", "z"), chunk("a.md", "x"), chunk("a.md", "y")], text);
    const kept = Array.from(plan.renumber).filter((to) => to >= 0);
    expect(kept).toEqual([...kept].sort((p, q) => p - q));
    expect(plan.kept + plan.added.length).toBe(3);
    expect(plan.added).toEqual([0]);
  });

  it("keeps each old chunk for at most one new chunk when texts repeat", () => {
    const old = [chunk("a.md", "same"), chunk("b.md", "other")];
    const plan = planUpdate(old, [chunk("a.md", "same"), chunk("a.md", "same")], text);
    expect(Array.from(plan.renumber)).toEqual([0, -1]);
    expect(plan.added).toEqual([1]);
  });

  it("keeps a renamed file's chunks by their text", () => {
    const old = [chunk("a.md", "alpha"), chunk("old.md", "beta")];
    const plan = planUpdate(old, [old[0], chunk("new.md", "beta")], text);
    expect(Array.from(plan.renumber)).toEqual([0, 1]);
    expect(plan.added).toEqual([]);
  });
});
