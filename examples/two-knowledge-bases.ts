// Two knowledge bases in one agent: the billing and the deployment folders of the sample corpus,
// each copied to a temp folder and indexed on its own, each behind a tool of its own `name` and
// description. A fake model calls both tools in one turn; the example prints each ToolMessage's
// tool name and top source, then the trace lines, which carry the tool names as `tool_name`.
//
// Give every tool of an agent its own name: createAgent does not check names, and a second tool
// called `lookup_knowledge` would never be reached.
//
//   npx tsx examples/two-knowledge-bases.ts
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage, type BaseMessage } from "langchain";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// An app imports these from "lookup-knowledge".
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  readTraceFile,
  type LookupResult,
  type ToolInvocationRecord,
} from "../src/index.js";

const CORPUS_DIR = fileURLToPath(new URL("../corpus", import.meta.url));

/** A knowledge base of one folder of the sample corpus, copied below `dir` so that it holds nothing else. */
async function buildFromCorpusFolder(dir: string, folder: string): Promise<KnowledgeBase> {
  await cp(join(CORPUS_DIR, folder), join(dir, folder), { recursive: true });
  return KnowledgeBase.build({ corpusDir: dir });
}

async function main(): Promise<void> {
  const tempDir = await mkdtemp(join(tmpdir(), "lookup-knowledge-two-kbs-"));
  try {
    await run(tempDir);
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
}

async function run(tempDir: string): Promise<void> {
  const tracePath = join(tempDir, "tool_invocation.jsonl");
  const [billing, deployment] = await Promise.all([
    buildFromCorpusFolder(join(tempDir, "billing-kb"), "billing"),
    buildFromCorpusFolder(join(tempDir, "deployment-kb"), "deployment"),
  ]);

  // Both tools may share one trace file: each line names its tool.
  const lookupBilling = createLookupKnowledgeTool({
    knowledgeBase: billing,
    tracePath,
    name: "lookup_billing",
    description:
      "Search the billing handbook: invoices, refunds, credit notes, dunning, tax. Use it for any question about charging customers.",
  });
  const lookupDeployment = createLookupKnowledgeTool({
    knowledgeBase: deployment,
    tracePath,
    name: "lookup_deployment",
    description:
      "Search the deployment handbook: release trains, canaries, rollbacks, change freezes. Use it for any question about shipping code.",
  });

  try {
    // Turn 1 calls both tools at once; turn 2 answers from the two ToolMessages.
    const model = fakeModel()
      .respondWithTools([
        {
          name: "lookup_billing",
          args: { query: "How do I roll back an invoice batch that went out with wrong amounts?" },
          id: "call_billing",
        },
        {
          name: "lookup_deployment",
          args: { query: "What are the canary stages of a production deploy?" },
          id: "call_deployment",
        },
      ])
      .respond((messages: BaseMessage[]) => {
        const cited = messages
          .filter((message) => ToolMessage.isInstance(message))
          .map((message) => (message.artifact as LookupResult).primary?.source ?? "nothing found");
        return new AIMessage(`Roll the batch back first, then resume the canary. Sources: ${cited.join("; ")}.`);
      });
    const agent = createAgent({ model, tools: [lookupBilling, lookupDeployment] });

    const { messages } = await agent.invoke({
      messages: [new HumanMessage("A bad invoice batch went out during a canary deploy. What now?")],
    });
    for (const message of messages) {
      if (!ToolMessage.isInstance(message)) continue;
      const result = message.artifact as LookupResult;
      console.log(
        `${message.name}: top source ${result.primary?.source ?? "(none)"} (relevance ${result.relevance.level})`,
      );
    }
    console.log(`answer: ${String(messages.at(-1)?.content)}`);
  } finally {
    // Closing writes out the calls already traced and releases the trace file.
    await Promise.all([lookupBilling.close(), lookupDeployment.close()]);
  }

  // readTraceFile skips partial lines; the records are the tool's `tool_invocation` lines.
  const { records } = await readTraceFile(tracePath);
  for (const record of records as unknown as ToolInvocationRecord[]) {
    console.log(`trace: tool_name=${record.tool_name} status=${record.status} query="${record.input.query}"`);
  }
}

main().catch((error: unknown) => {
  console.error(`two-knowledge-bases example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
