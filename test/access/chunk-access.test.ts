import { describe, expect, it } from "vitest";
import { accessKeyOf, OPEN_ACCESS_KEY } from "../../src/access/access-key.js";
import { applyScope, groupsDigest, type AppliedScope } from "../../src/access/access-scope.js";
import { ChunkAccess, FILTER_CACHE_SIZE } from "../../src/access/chunk-access.js";
import { admits, chunkFilterOf, type ChunkFilter } from "../../src/access/chunk-filter.js";
import type { Chunk } from "../../src/types.js";

function chunk(id: number, domain: string | undefined, access: string[] | undefined): Chunk {
  return {
    source: `doc-${id}.md#top`,
    file: `doc-${id}.md`,
    breadcrumb: [`Doc ${id}`],
    content: `text ${id}`,
    meta: {
      ...(domain !== undefined ? { domain } : {}),
      keywords: [],
      entities: [],
      aliases: [],
      ...(access !== undefined ? { access } : {}),
    },
  };
}

/**
 * 0 billing [finance]   1 billing unlabelled   2 ops [finance, ops]   3 ops [] (nobody)
 * 4 hr [hr]             5 no domain unlabelled  6 ops [ops]
 */
const CHUNKS: Chunk[] = [
  chunk(0, "billing", ["finance"]),
  chunk(1, "billing", undefined),
  chunk(2, "ops", ["finance", "ops"]),
  chunk(3, "ops", []),
  chunk(4, "hr", ["hr"]),
  chunk(5, undefined, undefined),
  chunk(6, "ops", ["ops"]),
];

function scope(...groups: string[]): AppliedScope {
  const applied = applyScope({ groups });
  if (typeof applied === "string") throw new Error(applied);
  return applied;
}

function ids(filter: ChunkFilter | null): number[] | null {
  return filter === null ? null : [...filter.ids];
}

/** Checks that the parts of a filter agree: ids ascending, size, and one admitted bit per chunk. */
function expectConsistent(filter: ChunkFilter, count: number): void {
  expect(filter.admitted).toHaveLength(count);
  expect(filter.size).toBe(filter.ids.length);
  expect([...filter.ids]).toEqual([...filter.ids].sort((a, b) => a - b));
  expect([...filter.admitted.keys()].filter((id) => filter.admitted[id] === 1)).toEqual([...filter.ids]);
}

describe("chunkFilterOf", () => {
  it("admits the chunks accept returns true for, listing them ascending", () => {
    const filter = chunkFilterOf("k", 10, (id) => id % 3 === 0);
    expect(filter.key).toBe("k");
    expect([...filter.ids]).toEqual([0, 3, 6, 9]);
    expect(filter.size).toBe(4);
    expectConsistent(filter, 10);
  });

  it("admits every chunk when there is no filter, and only admitted ones through one", () => {
    const filter = chunkFilterOf("k", 4, (id) => id === 2);
    expect(admits(null, 1)).toBe(true);
    expect(admits(undefined, 1)).toBe(true);
    expect(admits(filter, 2)).toBe(true);
    expect(admits(filter, 1)).toBe(false);
  });
});

describe("ChunkAccess.filter", () => {
  it("returns null for an unscoped lookup in every domain, under either policy", () => {
    expect(new ChunkAccess(CHUNKS).filter(null, null)).toBeNull();
    expect(new ChunkAccess(CHUNKS, "deny").filter(null, null)).toBeNull();
  });

  it("allows unlabelled chunks by default", () => {
    expect(new ChunkAccess(CHUNKS).unlabelled).toBe("allow");
  });

  it("admits labelled chunks naming one of the scope's groups and unlabelled ones under allow", () => {
    const filter = new ChunkAccess(CHUNKS, "allow").filter(scope("finance"), null);
    expect(ids(filter)).toEqual([0, 1, 2, 5]);
    expectConsistent(filter!, CHUNKS.length);
  });

  it("admits no unlabelled chunk under deny", () => {
    const filter = new ChunkAccess(CHUNKS, "deny").filter(scope("finance"), null);
    expect(ids(filter)).toEqual([0, 2]);
    expectConsistent(filter!, CHUNKS.length);
  });

  it("admits a chunk labelled with several groups to a scope holding any one of them", () => {
    const access = new ChunkAccess(CHUNKS, "deny");
    expect(ids(access.filter(scope("ops"), null))).toEqual([2, 6]);
    expect(ids(access.filter(scope("finance", "ops"), null))).toEqual([0, 2, 6]);
  });

  it("admits nobody to a chunk labelled with an empty list, whatever the scope or policy", () => {
    expect(ids(new ChunkAccess(CHUNKS, "allow").filter(scope("finance", "hr", "ops"), null))).toEqual([
      0, 1, 2, 4, 5, 6,
    ]);
    expect(ids(new ChunkAccess(CHUNKS, "deny").filter(scope("finance", "hr", "ops"), null))).toEqual([0, 2, 4, 6]);
  });

  it("admits only unlabelled chunks to a scope with no groups under allow, and nothing under deny", () => {
    expect(ids(new ChunkAccess(CHUNKS, "allow").filter(scope(), null))).toEqual([1, 5]);
    const denied = new ChunkAccess(CHUNKS, "deny").filter(scope(), null);
    expect(ids(denied)).toEqual([]);
    expect(denied?.size).toBe(0);
  });

  it("compares group names exactly", () => {
    expect(ids(new ChunkAccess(CHUNKS, "deny").filter(scope("Finance", "OPS"), null))).toEqual([]);
  });

  it("filters by domain alone for an unscoped lookup, under either policy", () => {
    expect(ids(new ChunkAccess(CHUNKS, "allow").filter(null, "ops"))).toEqual([2, 3, 6]);
    expect(ids(new ChunkAccess(CHUNKS, "deny").filter(null, "billing"))).toEqual([0, 1]);
  });

  it("intersects the scope with the domain", () => {
    const allow = new ChunkAccess(CHUNKS, "allow");
    const deny = new ChunkAccess(CHUNKS, "deny");
    expect(ids(allow.filter(scope("finance"), "billing"))).toEqual([0, 1]);
    expect(ids(deny.filter(scope("finance"), "billing"))).toEqual([0]);
    expect(ids(allow.filter(scope("ops"), "ops"))).toEqual([2, 6]);
    expect(ids(allow.filter(scope("hr"), "ops"))).toEqual([]);
    expect(ids(allow.filter(scope("finance"), "nowhere"))).toEqual([]);
    for (const filter of [allow.filter(scope("finance"), "billing"), deny.filter(scope("ops"), "ops")])
      expectConsistent(filter!, CHUNKS.length);
  });

  it("returns null for a scope that reads every chunk when no domain narrows it", () => {
    const open = [chunk(0, "a", ["x"]), chunk(1, "b", undefined), chunk(2, "b", ["y", "x"])];
    expect(new ChunkAccess(open, "allow").filter(scope("x"), null)).toBeNull();
    expect(ids(new ChunkAccess(open, "deny").filter(scope("x"), null))).toEqual([0, 2]);
    expect(ids(new ChunkAccess(open, "allow").filter(scope("x"), "b"))).toEqual([1, 2]);
  });

  it("treats duplicate groups in a chunk's label as one", () => {
    const labelled = [chunk(0, "a", ["x", "x"]), chunk(1, "a", ["x"])];
    const access = new ChunkAccess(labelled, "deny");
    expect(ids(access.filter(scope("x"), null))).toBeNull();
    expect(access.rowKeysFor(scope("x"))).toEqual([accessKeyOf(["x"])]);
  });

  it("returns the same filter object for the same scope digest and domain", () => {
    const access = new ChunkAccess(CHUNKS, "allow");
    const first = access.filter(scope("finance", "ops"), "ops");
    expect(access.filter(scope(" ops", "finance", "ops"), "ops")).toBe(first);
    expect(access.filter(scope("finance", "ops"), null)).not.toBe(first);
    expect(access.filter(scope("finance"), "ops")).not.toBe(first);
  });

  it("names a filter by its scope digest and domain, so filters of different lookups never share a key", () => {
    const access = new ChunkAccess(CHUNKS, "allow");
    const keys = [
      access.filter(scope("finance"), null),
      access.filter(scope("finance"), "ops"),
      access.filter(scope("ops"), "ops"),
      access.filter(null, "ops"),
    ].map((filter) => filter?.key);
    expect(new Set(keys).size).toBe(4);
    expect(keys[0]).toContain(scope("finance").digest);
  });

  it("keeps the most recently used filters and rebuilds an evicted one equal to the first", () => {
    const access = new ChunkAccess(CHUNKS, "allow");
    const kept = access.filter(scope("finance"), null);
    const evicted = access.filter(scope("ops"), null);
    for (let i = 0; i < FILTER_CACHE_SIZE - 1; i++) {
      access.filter(scope(`team-${i}`), null);
      // Using it keeps it: the least recently used filter is dropped first.
      expect(access.filter(scope("finance"), null)).toBe(kept);
    }
    const rebuilt = access.filter(scope("ops"), null);
    expect(rebuilt).not.toBe(evicted);
    expect(rebuilt).toEqual(evicted);
    expect(access.filter(scope("finance"), null)).toBe(kept);
  });
});

describe("ChunkAccess.domainsFor", () => {
  it("lists every domain, sorted, for an unscoped lookup", () => {
    expect(new ChunkAccess(CHUNKS, "deny").domainsFor(null)).toEqual(["billing", "hr", "ops"]);
  });

  it("lists only the domains of chunks the scope may read", () => {
    expect(new ChunkAccess(CHUNKS, "allow").domainsFor(scope("finance"))).toEqual(["billing", "ops"]);
    expect(new ChunkAccess(CHUNKS, "deny").domainsFor(scope("hr"))).toEqual(["hr"]);
    expect(new ChunkAccess(CHUNKS, "allow").domainsFor(scope())).toEqual(["billing"]);
    expect(new ChunkAccess(CHUNKS, "deny").domainsFor(scope())).toEqual([]);
  });

  it("never lists a domain whose only chunks are labelled for nobody", () => {
    const hidden = [chunk(0, "secret", []), chunk(1, "public", undefined)];
    expect(new ChunkAccess(hidden, "allow").domainsFor(scope("anyone"))).toEqual(["public"]);
  });

  it("returns a copy that the caller may change", () => {
    const access = new ChunkAccess(CHUNKS, "allow");
    access.domainsFor(scope("finance")).push("leaked");
    expect(access.domainsFor(scope("finance"))).toEqual(["billing", "ops"]);
  });
});

describe("ChunkAccess.rowKeysFor", () => {
  it("is null for an unscoped lookup", () => {
    expect(new ChunkAccess(CHUNKS, "allow").rowKeysFor(null)).toBeNull();
    expect(new ChunkAccess(CHUNKS, "deny").rowKeysFor(null)).toBeNull();
  });

  it("lists the keys of the label sets the scope reads, and the open key under allow, sorted", () => {
    const keys = new ChunkAccess(CHUNKS, "allow").rowKeysFor(scope("finance"));
    expect(keys).toEqual([accessKeyOf(["finance"]), accessKeyOf(["finance", "ops"]), OPEN_ACCESS_KEY].sort());
  });

  it("leaves the open key out under deny", () => {
    expect(new ChunkAccess(CHUNKS, "deny").rowKeysFor(scope("finance"))).toEqual(
      [accessKeyOf(["finance"]), accessKeyOf(["finance", "ops"])].sort(),
    );
    expect(new ChunkAccess(CHUNKS, "deny").rowKeysFor(scope())).toEqual([]);
  });

  it("includes the open key under allow even when no chunk is unlabelled", () => {
    const labelled = [chunk(0, "a", ["x"]), chunk(1, "a", ["y"])];
    expect(new ChunkAccess(labelled, "allow").rowKeysFor(scope("x"))).toEqual(
      [accessKeyOf(["x"]), OPEN_ACCESS_KEY].sort(),
    );
    expect(new ChunkAccess([], "allow").rowKeysFor(scope("x"))).toEqual([OPEN_ACCESS_KEY]);
  });

  it("never lists the key of a label that names nobody", () => {
    const nobody = accessKeyOf([]);
    for (const policy of ["allow", "deny"] as const)
      expect(new ChunkAccess(CHUNKS, policy).rowKeysFor(scope("finance", "hr", "ops"))).not.toContain(nobody);
  });

  it("names label sets by digest, never by their groups in clear", () => {
    const keys = new ChunkAccess(CHUNKS, "allow").rowKeysFor(scope("finance", "hr", "ops")) ?? [];
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(key).not.toMatch(/finance|hr|ops/);
  });
});

describe("accessKeyOf", () => {
  it("is the open key for an unlabelled chunk", () => {
    expect(accessKeyOf(undefined)).toBe(OPEN_ACCESS_KEY);
  });

  it("is g and the digest of the sorted unique groups, whatever their order", () => {
    expect(accessKeyOf(["ops", "finance", "ops"])).toBe(`g${groupsDigest(["finance", "ops"])}`);
    expect(accessKeyOf(["finance", "ops"])).toBe(accessKeyOf(["ops", "finance"]));
  });

  it("gives a label naming nobody a key of its own, not the open one", () => {
    expect(accessKeyOf([])).toBe(`g${groupsDigest([])}`);
    expect(accessKeyOf([])).not.toBe(OPEN_ACCESS_KEY);
  });
});
