import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { RETRIEVAL_DEFAULTS } from "../../src/graph/resolve-options.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";

const SENTENCE = "The quarterly ledger reconciliation needs approval from finance before the close. ";
const HUGE_CHARS = 50_000_000;
/** Framing the text adds per block besides its content (delimiters, source, title, section, hits, cut note). */
const FRAMING_PER_BLOCK = 2000;
const HEADER_CHARS = 6000;

describe("a corpus with sections far larger than a model's context", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    const dir = await temp.make();
    await writeFile(
      join(dir, "huge.md"),
      `---\ntitle: Ledger\n---\n# Ledger close\n\n${SENTENCE.repeat(Math.ceil(HUGE_CHARS / SENTENCE.length))}`,
    );
    await mkdir(join(dir, "many"));
    for (let i = 0; i < 25; i++) {
      await writeFile(
        join(dir, "many", `ledger-${i}.md`),
        `---\ntitle: Ledger part ${i}\n---\n# Part ${i}\n\n${SENTENCE.repeat(1200 + i)}`,
      );
    }
    // Sections kept whole (64 MiB chunks allowed), so that evidence itself must be cut to the caps.
    kb = await KnowledgeBase.build({ corpusDir: dir, embeddings: null, corpus: { maxChunkBytes: 64 * 1024 * 1024 } });
  }, 300_000);
  afterAll(() => temp.cleanup());

  it("returns at most the per-block and total caps of content, marked as cut in the block, the artifact and the text", async () => {
    const tracePath = join(await temp.make(), "trace.jsonl");
    const caps = RETRIEVAL_DEFAULTS.evidence;
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });
    const thrown: unknown[] = [];
    const outcomes: { content: string; result: LookupResult }[] = [];
    for (const limit of [1, 5, 20]) {
      try {
        const message = await lookup.invoke({
          type: "tool_call",
          id: `limit-${limit}`,
          name: lookup.name,
          args: { query: "ledger reconciliation approval", limit },
        });
        outcomes.push({ content: String(message.content), result: message.artifact as LookupResult });
      } catch (error) {
        thrown.push(error);
      }
    }
    recordFigures({
      scenario: "oversized sections (50 MB file, 25 sections of 100 KB)",
      inputsTried: 3,
      crashes: thrown.length,
    });
    expect(thrown).toEqual([]);

    for (const { content, result } of outcomes) {
      const contents = result.evidence.map((block) => block.content.length);
      expect(Math.max(...contents)).toBeLessThanOrEqual(caps.maxBlockChars);
      expect(contents.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(caps.maxTotalChars);
      expect(result.contentTruncated).toBe(true);
      expect(content.length).toBeLessThanOrEqual(
        caps.maxTotalChars + HEADER_CHARS + result.evidence.length * FRAMING_PER_BLOCK,
      );
      expect(content).toContain("Some content was cut to fit the size limits");
      for (const block of result.evidence) {
        expect(block.truncated).toBeDefined();
        expect(block.truncated?.shownChars).toBe(block.content.length);
      }
    }
    const huge = outcomes[0].result.evidence.find((block) => block.source === "huge.md#ledger-close");
    expect(huge?.truncated?.totalChars).toBeGreaterThanOrEqual(HUGE_CHARS);
    expect(outcomes[0].content).toMatch(
      /\[content cut: \d+ of \d{8} characters shown; the full section is in the source\]/,
    );
  });

  it("lets a caller raise or lower the caps", async () => {
    const lookup = createLookupKnowledgeTool({
      knowledgeBase: kb,
      tracePath: null,
      evidence: { maxBlockChars: 100, maxTotalChars: 250 },
    });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "small-caps",
      name: lookup.name,
      args: { query: "ledger reconciliation approval", limit: 5 },
    });
    const result = message.artifact as LookupResult;
    const lengths = result.evidence.map((block) => block.content.length);
    expect(lengths).toHaveLength(5);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(100);
    expect(lengths.reduce((sum, length) => sum + length, 0)).toBeLessThanOrEqual(250);
    expect(lengths[4]).toBe(0);
  });
});
