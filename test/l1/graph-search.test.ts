import { describe, expect, it } from "vitest";
import { chunkFilterOf } from "../../src/access/chunk-filter.js";
import { labelAccepts } from "../../src/l1/graph-search.js";

/** Labels 0..4: label 1 deleted, label 4 unknown to this view (a superseded one). */
const MAP = Int32Array.from([0, -1, 1, 2]);
const DOMAINS = ["ops", "hr", "ops"];
const accepted = (accepts: ReturnType<typeof labelAccepts>) =>
  [0, 1, 2, 3, 4].filter((label) => accepts === undefined || accepts(label));

describe("labelAccepts", () => {
  it("needs no filter for a current view without a domain or scope", () => {
    expect(labelAccepts(MAP, DOMAINS, null, false)).toBeUndefined();
  });

  it("lets a stale view through only the live labels it knows", () => {
    expect(accepted(labelAccepts(MAP, DOMAINS, null, true))).toEqual([0, 2, 3]);
  });

  it("filters by the domain of each label's chunk", () => {
    expect(accepted(labelAccepts(MAP, DOMAINS, "ops", false))).toEqual([0, 3]);
  });

  it("filters by the chunks a chunk filter admits", () => {
    const filter = chunkFilterOf("scope", 3, (id) => id !== 0);
    expect(accepted(labelAccepts(MAP, DOMAINS, filter, false))).toEqual([2, 3]);
  });
});
