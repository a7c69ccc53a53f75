// The consumer smoke app: what a fresh LangChain project does with lookup-knowledge, installed
// from the packed tarball. Builds a knowledge base from a tiny corpus in a temp folder, binds the
// tool in `createAgent` and `ToolNode`, runs one agent call with a fake model that calls the tool
// once and then answers, and checks the ToolMessage carries evidence; then scores the agent's
// evidence with the `lookup-knowledge/eval` entry point (no promptfoo installed, as in most apps).
// Exits 1 on any failure.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { createLookupKnowledgeTool, KnowledgeBase, TOOL_NAME, type LookupResult } from "lookup-knowledge";
import { evaluateRun, LookupKnowledgeProvider, ndcgAtK, type Qrels, type Run } from "lookup-knowledge/eval";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The corpus, relative path to Markdown; the question below is answered by the billing runbook. */
const CORPUS: Record<string, string> = {
  "billing/invoice-run-rollback.md": `---
title: Invoice Run Rollback
domain: billing
keywords: [invoice batch, rollback, wrong amounts]
---
When an invoice batch goes out with wrong amounts, roll the invoice run back before customers pay.

## Steps

1. Pause the payment collector for the affected batch.
2. Void every invoice of the batch in Ledgerline and send the correction notice.
3. Re-run the batch once finance has confirmed the corrected amounts.
`,
  "billing/refunds.md": `---
title: Refunds
domain: billing
keywords: [refund, chargeback]
---
Refunds under 500 EUR are approved by the support lead; larger refunds need a finance manager.
`,
  "deploy/service-rollback.md": `---
title: Service Rollback
domain: deploy
keywords: [rollback, deploy, canary]
---
Roll a service back by redeploying the previous release tag through the pipeline; never patch production by hand.
`,
};

const QUESTION = "How do I undo an invoice batch with wrong amounts?";
const EXPECTED_SOURCE = "billing/invoice-run-rollback.md#";
const FINAL_ANSWER =
  "Pause the payment collector, void the batch in Ledgerline, then re-run it (billing/invoice-run-rollback.md).";

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Checks one ToolMessage of `lookup_knowledge`: no error, evidence in the text and in the artifact. */
function checkToolMessage(message: ToolMessage, callId: string): LookupResult {
  check(message.name === TOOL_NAME, `ToolMessage name is ${String(message.name)}, expected ${TOOL_NAME}`);
  check(message.tool_call_id === callId, `ToolMessage answers ${message.tool_call_id}, expected ${callId}`);
  check(message.status !== "error", `the tool failed: ${String(message.content)}`);
  const text = String(message.content);
  check(text.includes("<<<EVIDENCE 1 of "), `no evidence block in the ToolMessage: ${text.slice(0, 300)}`);
  check(
    text.includes(`source: ${EXPECTED_SOURCE}`),
    `the ToolMessage does not cite ${EXPECTED_SOURCE}: ${text.slice(0, 300)}`,
  );
  // The artifact is typed by the package's own exported LookupResult.
  const result = message.artifact as LookupResult;
  check(result.evidence.length > 0, "the artifact has no evidence");
  check(
    result.primary?.source.startsWith(EXPECTED_SOURCE) === true,
    `primary evidence is ${String(result.primary?.source)}`,
  );
  return result;
}

async function writeCorpus(corpusDir: string): Promise<void> {
  for (const [file, text] of Object.entries(CORPUS)) {
    const path = join(corpusDir, file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

async function main(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "lookup-knowledge-consumer-"));
  try {
    const corpusDir = join(root, "corpus");
    const tracePath = join(root, "trace", "tool_invocation.jsonl");
    await writeCorpus(corpusDir);
    const warnings: string[] = [];
    const kb = await KnowledgeBase.build({ corpusDir, onWarning: (message) => warnings.push(message) });
    check(warnings.length === 0, `the build skipped files: ${warnings.join("; ")}`);

    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });
    // The tool must be a tool of the app's own @langchain/core, not of a second copy.
    const asCoreTool: StructuredToolInterface = lookup;
    const toolNode = new ToolNode([lookup]);
    const model = fakeModel()
      .respondWithTools([{ name: TOOL_NAME, args: { query: QUESTION }, id: "call_lookup_1" }])
      .respond(new AIMessage(FINAL_ANSWER));
    // Exactly as an app writes it: the tool itself in `tools` (a second copy of core fails here with TS2769).
    const agent = createAgent({ model, tools: [lookup] });
    void asCoreTool;

    const { messages } = await agent.invoke({ messages: [new HumanMessage(QUESTION)] });
    const toolMessages = messages.filter((message: BaseMessage) => ToolMessage.isInstance(message));
    check(toolMessages.length === 1, `expected 1 ToolMessage, got ${toolMessages.length}`);
    const result = checkToolMessage(toolMessages[0] as ToolMessage, "call_lookup_1");
    const last = messages[messages.length - 1];
    check(
      last !== undefined && AIMessage.isInstance(last) && (last.tool_calls ?? []).length === 0,
      "the agent did not end with an answer",
    );
    check(String(last.content) === FINAL_ANSWER, `unexpected final answer: ${String(last.content)}`);
    check(model.callCount === 2, `the model was called ${model.callCount} times, expected 2`);

    // The same tool run by a bare ToolNode, as in a hand-built LangGraph graph.
    const call = new AIMessage({
      content: "",
      tool_calls: [{ name: TOOL_NAME, args: { query: QUESTION, limit: 2 }, id: "call_lookup_2", type: "tool_call" }],
    });
    const nodeOutput: { messages: ToolMessage[] } = await toolNode.invoke({ messages: [call] });
    const nodeMessage = nodeOutput.messages[0];
    check(nodeMessage !== undefined, "ToolNode returned no message");
    const nodeResult = checkToolMessage(nodeMessage, "call_lookup_2");

    // The evaluation entry point: the evidence as a run, scored against one judgement.
    const expectedSource = result.primary?.source ?? "";
    const ranked = result.evidence.map((block) => block.source);
    const run: Run = new Map([["q1", ranked.map((docId, rank) => ({ docId, score: ranked.length - rank }))]]);
    const qrels: Qrels = new Map([["q1", new Map([[expectedSource, 1]])]]);
    const ndcg = evaluateRun(run, qrels).mean.ndcgAt10;
    check(ndcg === ndcgAtK(ranked, new Map([[expectedSource, 1]]), 10), "evaluateRun and ndcgAtK disagree");
    check(ndcg === 1, `the primary block is not ranked first: nDCG@10 ${ndcg}`);
    check(typeof LookupKnowledgeProvider === "function", "lookup-knowledge/eval has no promptfoo provider class");

    await lookup.close();
    const traceLines = (await readFile(tracePath, "utf8")).split("\n").filter((line) => line.trim() !== "");
    check(traceLines.length === 2, `expected 2 trace lines, got ${traceLines.length}`);

    return (
      `agent call ok: 1 ToolMessage, ${result.evidence.length} evidence block(s), layer ${result.retrievalLayer}, ` +
      `relevance ${result.relevance.level}, primary ${result.primary?.source}; ` +
      `ToolNode ok: ${nodeResult.evidence.length} block(s); trace ${traceLines.length} lines; ` +
      `lookup-knowledge/eval ok: nDCG@10 ${ndcg.toFixed(3)}; final answer "${String(last.content)}"`
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  (summary) => console.log(summary),
  (error: unknown) => {
    console.error(`consumer app failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
