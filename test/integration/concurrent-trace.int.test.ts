import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "./helpers/integration-fixtures.js";

const CALLS = 200;
const QUERIES = [
  "how do I roll back a bad deploy with Helmsman",
  "invoice run rollback wrong amounts",
  "rotate an API key",
  "frozen account unpaid invoice",
  "canary abort latency",
  "break-glass access approval",
  "refund approval limits",
  "deploy freeze exceptions",
];

describe("many concurrent lookups through one tool", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });
  afterAll(() => temp.cleanup());

  it(`writes exactly ${CALLS} whole trace lines with distinct invocation ids and short content previews`, async () => {
    const tracePath = join(await temp.make(), "nested", "tool_invocation.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });

    const messages = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        lookup.invoke({
          type: "tool_call",
          id: `call_${i}`,
          name: lookup.name,
          args: { query: QUERIES[i % QUERIES.length], limit: 1 + (i % 10) },
        }),
      ),
    );
    const results = messages.map((message) => message.artifact as LookupResult);
    expect(results.every((result) => result.traceWritten)).toBe(true);
    // Some evidence is longer than a preview, so the cut is exercised.
    expect(results.some((result) => result.evidence.some((block) => block.content.length > 200))).toBe(true);

    const text = await readFile(tracePath, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toHaveLength(CALLS);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ids = new Set<string>();
    for (const record of records) {
      expect(record.type).toBe("tool_invocation");
      expect(record.status).toBe("success");
      ids.add(record.invocation_id as string);
      const details = record.retrieval_details as { evidence: { content_preview: string }[] };
      for (const block of details.evidence) expect(block.content_preview.length).toBeLessThanOrEqual(200);
    }
    expect(ids.size).toBe(CALLS);
    expect(ids).toEqual(new Set(results.map((result) => result.invocationId)));
  });
});
