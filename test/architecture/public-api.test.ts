import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

/**
 * The root module's runtime names: each is a promise to users, so adding or removing one is a
 * deliberate change made here and in `api/lookup-knowledge.api.md` (`npm run api:report`).
 */
const RUNTIME_EXPORTS = [
  "JsonlTraceSink",
  "KnowledgeBase",
  "KnowledgeBaseRetriever",
  "LookupKnowledgeError",
  "LsaEmbeddings",
  "RetrievalState",
  "TOOL_NAME",
  "acquireIndexLock",
  "connectPgVectorStore",
  "createKnowledgeRetriever",
  "createLookupKnowledgeTool",
  "createRetrievalGraph",
  "createVectorStoreL1Searcher",
  "followKnowledgeBase",
  "formatTraceSummary",
  "memoryDialect",
  "pgvectorDialect",
  "readTraceFile",
  "summarizeTraceFile",
  "toOtelSpan",
];

const REPORT = join(REPO_ROOT, "api", "lookup-knowledge.api.md");

describe("the public API", () => {
  it("exports exactly the listed runtime names from the root module, at most 40", () => {
    expect(Object.keys(api).sort()).toEqual([...RUNTIME_EXPORTS].sort());
    expect(RUNTIME_EXPORTS.length).toBeLessThanOrEqual(40);
  });

  it("has every runtime name in the committed API report", async () => {
    const report = await readFile(REPORT, "utf8");
    const missing = RUNTIME_EXPORTS.filter(
      (name) => !new RegExp(`export (?:declare )?(?:function|class|const|abstract class) ${name}\\b`).test(report),
    );
    expect(missing).toEqual([]);
  });

  it("documents every member of the committed root API report", async () => {
    const report = await readFile(REPORT, "utf8");
    const undocumented = report
      .split("\n")
      .filter((line) => line.includes("(undocumented)") || line.includes("ae-undocumented"));
    expect(undocumented).toEqual([]);
  });

  it("names no type in the committed root API report that the root module does not export", async () => {
    const report = await readFile(REPORT, "utf8");
    const forgotten = report.split("\n").filter((line) => line.includes("ae-forgotten-export"));
    expect(forgotten).toEqual([]);
  });
});
