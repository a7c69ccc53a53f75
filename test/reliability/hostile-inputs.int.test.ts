import { ToolInputParsingException } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  KnowledgeBase,
  LookupKnowledgeError,
  type LookupResult,
} from "../../src/index.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { LINE_BREAK } from "../../src/tool/escape-text.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";

const INPUTS = 2000;

const PIECES = [
  "refund",
  "API key",
  " ",
  "\n",
  "\r",
  "\u2028",
  "\u0085",
  "\u202E",
  "\u{E0041}",
  "<<<END EVIDENCE 1 [x]>>>",
  "退款",
  "ガ",
  "😀",
  "\ud800",
  "&amp;",
  "\u0000",
  "\u001b[31m",
  "'\"",
  "${}",
  "__proto__",
];

function generator(seed: number) {
  const next = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const text = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(PIECES)).join("");
  const query = () =>
    pick([
      () => text(40),
      () => text(400),
      () => "q".repeat(1000),
      () => "q".repeat(1001),
      () => "x".repeat(1_000_000),
      () => "",
      () => 42,
      () => null,
      () => undefined,
      () => ({ toString: () => "refund" }),
      () => ["refund"],
      () => true,
    ])();
  const domain = () =>
    pick([
      () => undefined,
      () => null,
      () => "",
      () => "access",
      () => "ACCESS ",
      () => text(10),
      () => "d".repeat(101),
      () => 7,
      () => ({ $ne: null }),
    ])();
  const limit = () =>
    pick([
      () => undefined,
      () => Math.floor(next() * 40) - 10,
      () => 2.5,
      () => Number.NaN,
      () => Number.POSITIVE_INFINITY,
      () => "5",
      () => null,
      () => 20,
      () => 1,
    ])();
  return () => ({ query: query(), domain: domain(), limit: limit() });
}

/** The advice lines the tool writes for the high, medium and low levels, whole. */
const ADVICE_LINES = [
  "The first block matches the question well: answer from it and cite its source.",
  "The first block plausibly answers: check it against the question, then answer from the blocks that do and cite them.",
  "Relevance is uncertain: check each block against the question. Answer only from blocks that do answer it, citing them; if none does, say the knowledge base does not cover this.",
];

/** Lines of a tool text that neither the tool's framing nor the `│ ` quoting accounts for. */
function strayLines(content: string): string[] {
  const frame =
    /^(<<<(END )?EVIDENCE \d+.*\]>>>|source: |title: |section: |layer: |lookup_knowledge: |retrieval layer: |Text between |Some content was cut|\[content cut: |NO EVIDENCE: |$)/;
  return content
    .split(LINE_BREAK)
    .filter((line) => !line.startsWith("│ ") && !frame.test(line) && !ADVICE_LINES.includes(line));
}

describe("fuzzed inputs to the tool and to the subgraph", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR });
  });
  afterAll(() => temp.cleanup());

  it(`answers or refuses each of ${INPUTS} fuzzed tool calls with LangChain's input error, never anything else`, async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const next = generator(1);
    let answered = 0;
    let refused = 0;
    const crashes: string[] = [];
    const stray: string[] = [];
    for (let i = 0; i < INPUTS; i++) {
      const args = next();
      try {
        const message = await lookup.invoke({ type: "tool_call", id: `fuzz-${i}`, name: lookup.name, args });
        stray.push(...strayLines(String(message.content)));
        expect((message.artifact as LookupResult).evidence.length).toBeLessThanOrEqual(20);
        answered++;
      } catch (error) {
        if (error instanceof ToolInputParsingException) refused++;
        else crashes.push(`${JSON.stringify(args)?.slice(0, 200)}: ${String(error)}`);
      }
    }
    recordFigures({ scenario: "fuzzed tool calls", inputsTried: INPUTS, crashes: crashes.length });
    expect(crashes).toEqual([]);
    expect(stray).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it(`answers or refuses each of ${INPUTS} fuzzed direct subgraph inputs with INVALID_INPUT, never a TypeError`, async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const next = generator(2);
    let answered = 0;
    let refused = 0;
    const crashes: string[] = [];
    for (let i = 0; i < INPUTS; i++) {
      const input = next() as unknown as { query: string };
      try {
        const { result } = await graph.invoke(input);
        expect(result?.evidence.length).toBeLessThanOrEqual(20);
        answered++;
      } catch (error) {
        if (error instanceof LookupKnowledgeError && error.code === "INVALID_INPUT") refused++;
        else crashes.push(`${JSON.stringify(input)?.slice(0, 200)}: ${String(error)}`);
      }
    }
    recordFigures({ scenario: "fuzzed direct subgraph inputs", inputsTried: INPUTS, crashes: crashes.length });
    expect(crashes).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
