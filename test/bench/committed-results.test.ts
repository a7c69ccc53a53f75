import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFields, writeCommittedResults } from "../../bench/report/committed-results.js";
import type { BenchReport } from "../../bench/report/report-model.js";

const report = {
  schema: "lookup-knowledge-bench/1",
  mode: "full",
  startedAt: "2026-12-07T16:00:00.000Z",
  command: "npm run bench -- --only sync",
  sizes: [{ size: 1000 }],
  incremental: null,
  goals: [],
  filter: null,
  reloads: [],
  documentSync: { size: 1000 },
  corpusParse: null,
  notes: ["a note"],
} as unknown as BenchReport;

describe("the committed result files", () => {
  it("keep the run's own fields and leave every step's figures out", () => {
    expect(runFields(report)).toEqual({
      mode: "full",
      startedAt: "2026-12-07T16:00:00.000Z",
      command: "npm run bench -- --only sync",
    });
  });

  it("write one file per step with its schema, the run's fields and that step's figures only", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lk-committed-"));
    try {
      const written = await writeCommittedResults(dir, report, [
        {
          file: "document-sync.json",
          schema: "lookup-knowledge-bench-sync/1",
          figures: { documentSync: { size: 1000 } },
        },
      ]);
      expect(written).toEqual([join(dir, "document-sync.json")]);
      expect(JSON.parse(await readFile(written[0], "utf8"))).toEqual({
        schema: "lookup-knowledge-bench-sync/1",
        mode: "full",
        startedAt: "2026-12-07T16:00:00.000Z",
        command: "npm run bench -- --only sync",
        documentSync: { size: 1000 },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
