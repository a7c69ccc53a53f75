import { describe, expect, it } from "vitest";
import { syncLines } from "../../bench/report/sync-lines.js";
import type { EditTiming } from "../../bench/tasks/document-sync-task.js";

const edit = (totalMs: number, chunksEmbedded = 1): EditTiming => ({
  loadMs: totalMs / 2,
  applyMs: totalMs / 4,
  saveMs: totalMs / 4,
  totalMs,
  chunksEmbedded,
});

describe("syncLines", () => {
  it("prints nothing when the document sync neither ran nor failed", () => {
    expect(syncLines({ documentSync: null, failures: [] })).toEqual([]);
    expect(syncLines({ failures: [] })).toEqual([]);
  });

  it("puts each sync beside the corpus-file edit as a ratio of their totals", () => {
    const lines = syncLines({
      documentSync: {
        size: 100_000,
        files: 10_000,
        sectionsPerFile: 10,
        folderBuild: { totalMs: 40_000, chunkCount: 100_000 },
        documentsBuild: { totalMs: 42_000, chunkCount: 100_000 },
        folderEdit: edit(2_000),
        syncAll: edit(3_000),
        syncOne: edit(1_000),
        syncAllCounts: { numAdded: 0, numUpdated: 1, numSkipped: 9_999, numDeleted: 0 },
        syncOneCounts: { numAdded: 0, numUpdated: 1, numSkipped: 0, numDeleted: 0 },
      },
      failures: [],
    });
    const text = lines.join("\n");
    expect(lines[0]).toBe(
      "one edited source at 100,000 chunks (10000 sources of 10 sections; load + apply + save, s):",
    );
    expect(text).toMatch(/corpus file: update\(\{ corpusDir \}\) +1\.00 +0\.50 +0\.50 +2\.00 +1 +1\.0x$/m);
    expect(text).toMatch(/syncDocuments\(all, full\) +1\.50 +0\.75 +0\.75 +3\.00 +1 +1\.5x$/m);
    expect(text).toMatch(/syncDocuments\(\[one\]\) +0\.50 +0\.25 +0\.25 +1\.00 +1 +0\.50x$/m);
    expect(text).toContain('counts: all {"numAdded":0,"numUpdated":1,"numSkipped":9999,"numDeleted":0}');
  });

  it("keeps what a failed run measured and says why it failed", () => {
    const lines = syncLines({
      documentSync: { size: 1_000, files: 100, sectionsPerFile: 10, folderEdit: edit(500) },
      failures: [{ step: "sync", size: 1_000, message: "killed after 300 s" }],
    });
    expect(lines.join("\n")).toMatch(/syncDocuments\(all, full\) +- +- +- +- +- +-$/m);
    expect(lines.at(-1)).toBe("  FAILED: killed after 300 s");
  });
});
