import { describe, expect, it } from "vitest";
import {
  foreignRowIds,
  planRetention,
  type CommittedRows,
  type RowsToCommit,
} from "../../src/knowledge-base/row-retention.js";

const G1 = "1111111111111111";
const G2 = "2222222222222222";

/** A state to commit on generation `generation`, reading `current`. */
function next(fields: Partial<Omit<RowsToCommit, "current">> & { current?: string[] } = {}): RowsToCommit {
  return {
    generation: G1,
    revision: 1,
    pendingDeletes: [],
    removed: [],
    ...fields,
    current: new Set(fields.current ?? ["a", "b"]),
  };
}

describe("planRetention", () => {
  const base: CommittedRows = { generation: G1, revision: 0, retained: [] };

  it("keeps the rows an update removed for the commit before it, and deletes nothing yet", () => {
    expect(planRetention(base, next({ removed: ["x"] }), 1)).toEqual({
      retained: [{ generation: G1, pendingDeletes: ["x"] }],
      deleteNow: [],
      keepGenerations: [G1],
    });
  });

  it("deletes the rows of a commit that falls out of the window, and keeps the newer one's", () => {
    const committed: CommittedRows = {
      generation: G1,
      revision: 1,
      retained: [{ generation: G1, pendingDeletes: ["x"] }],
    };
    expect(planRetention(committed, next({ revision: 2, removed: ["y"] }), 1)).toEqual({
      retained: [{ generation: G1, pendingDeletes: ["y"] }],
      deleteNow: ["x"],
      keepGenerations: [G1],
    });
    expect(planRetention(committed, next({ revision: 2, removed: ["y"] }), 2).retained).toEqual([
      { generation: G1, pendingDeletes: ["y"] },
      { generation: G1, pendingDeletes: ["x"] },
    ]);
  });

  it("keeps a whole earlier generation after a rebuild, and names it among the generations to keep", () => {
    expect(planRetention(base, next({ generation: G2, revision: 0 }), 1)).toEqual({
      retained: [{ generation: G1, pendingDeletes: [] }],
      deleteNow: [],
      keepGenerations: [G2, G1],
    });
  });

  it("with keepGenerations 0 deletes the removed rows and keeps only the committed generation, as before replicas", () => {
    const committed: CommittedRows = {
      generation: G1,
      revision: 1,
      retained: [{ generation: G1, pendingDeletes: ["x"] }],
    };
    expect(planRetention(committed, next({ revision: 2, removed: ["y"], pendingDeletes: ["z"] }), 0)).toEqual({
      retained: [],
      deleteNow: ["z", "y", "x"],
      keepGenerations: [G1],
    });
  });

  it("deletes at once the rows no commit ever read: those removed by updates of a build never saved", () => {
    expect(planRetention(null, next({ removed: ["x"] }), 1)).toEqual({
      retained: [],
      deleteNow: ["x"],
      keepGenerations: [G1],
    });
    expect(planRetention({ generation: G2, revision: 4, retained: [] }, next({ removed: ["x"] }), 1).deleteNow).toEqual(
      ["x"],
    );
  });

  it("never lists nor deletes a row the committed state reads again (a chunk changed back)", () => {
    const committed: CommittedRows = {
      generation: G1,
      revision: 1,
      retained: [{ generation: G1, pendingDeletes: ["a", "x"] }],
    };
    expect(planRetention(committed, next({ revision: 2, removed: ["y"], pendingDeletes: ["b"] }), 1)).toEqual({
      retained: [{ generation: G1, pendingDeletes: ["y"] }],
      deleteNow: ["x"],
      keepGenerations: [G1],
    });
  });

  it("adds no commit to the window when the state is the committed one saved again", () => {
    const committed: CommittedRows = {
      generation: G1,
      revision: 1,
      retained: [{ generation: G1, pendingDeletes: ["x"] }],
    };
    expect(planRetention(committed, next({ revision: 1 }), 1).retained).toEqual(committed.retained);
  });
});

describe("foreignRowIds", () => {
  it("lists the kept rows of the reader's own generation and the extra lists, once each", () => {
    const retained = [
      { generation: G1, pendingDeletes: ["x", "y"] },
      { generation: G2, pendingDeletes: ["z"] },
    ];
    expect(foreignRowIds(G1, retained, ["y", "w"])).toEqual(["x", "y", "w"]);
  });
});
