// lookup_knowledge in a LangChain agent: build a knowledge base from the sample corpus, make the
// tool, bind it in `createAgent`, ask one question, and print the tool call, the evidence sources
// and the final answer.
//
// Offline by default: without OPENAI_API_KEY a fake chat model calls the tool once and then answers
// from the ToolMessage. With OPENAI_API_KEY set the agent runs on "openai:gpt-4.1-mini", which needs
// @langchain/openai installed (`npm install @langchain/openai`; on Node 20 use 1.5.8 or older).
//
//   npx tsx examples/agent.ts
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage, type BaseMessage } from "langchain";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// An app imports these from "lookup-knowledge".
import { createLookupKnowledgeTool, KnowledgeBase, TOOL_NAME, type LookupResult } from "../src/index.js";

const CORPUS_DIR = fileURLToPath(new URL("../corpus", import.meta.url));
const QUESTION = "Who can approve a $6,000 refund?";
const OPENAI_MODEL = "openai:gpt-4.1-mini";

/**
 * The stand-in for a real model: the first turn calls the tool, the second answers by quoting the
 * top evidence of the ToolMessage (a real model would read the ToolMessage's text and reason over it).
 */
function createOfflineModel() {
  return fakeModel()
    .respondWithTools([{ name: TOOL_NAME, args: { query: QUESTION }, id: "call_lookup_1" }])
    .respond((messages: BaseMessage[]) => {
      const toolMessage = messages.findLast((message) => ToolMessage.isInstance(message));
      const result = toolMessage?.artifact as LookupResult | undefined;
      if (!result?.primary) return new AIMessage("The knowledge base has no information on this.");
      return new AIMessage(
        `According to ${result.primary.source} (relevance ${result.relevance.level}):\n${result.primary.content.trim()}`,
      );
    });
}

/** The real model's id when OPENAI_API_KEY is set, once its provider package is known to load. */
async function openAIModel(): Promise<string> {
  try {
    await import("@langchain/openai");
    return OPENAI_MODEL;
  } catch (error) {
    throw new Error(
      `OPENAI_API_KEY is set, but ${OPENAI_MODEL} needs @langchain/openai, which cannot be loaded (${error instanceof Error ? error.message : String(error)}). ` +
        "Run `npm install @langchain/openai`, or unset OPENAI_API_KEY to run offline with the fake model.",
      { cause: error },
    );
  }
}

async function main(): Promise<void> {
  const online = Boolean(process.env.OPENAI_API_KEY);
  const model = online ? await openAIModel() : createOfflineModel();
  // An app usually builds once (`lookup-knowledge index`) and calls KnowledgeBase.load(".lookup-knowledge/index").
  const kb = await KnowledgeBase.build({ corpusDir: CORPUS_DIR });
  // Everything the example writes (here only the trace) goes to a temp folder removed at the end.
  const tempDir = await mkdtemp(join(tmpdir(), "lookup-knowledge-agent-"));
  const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: join(tempDir, "tool_invocation.jsonl") });
  try {
    console.log(
      `model: ${online ? OPENAI_MODEL : "offline fake model (set OPENAI_API_KEY for a real one)"}; ${kb.chunks.length} chunks in ${kb.domains.length} domains`,
    );

    const agent = createAgent({
      model,
      tools: [lookup],
      systemPrompt:
        "Answer from the knowledge base: call lookup_knowledge, then answer from its evidence and cite the source.",
    });
    const { messages } = await agent.invoke({ messages: [new HumanMessage(QUESTION)] });

    for (const message of messages) {
      if (AIMessage.isInstance(message)) {
        for (const call of message.tool_calls ?? [])
          console.log(`tool call: ${call.name}(${JSON.stringify(call.args)})`);
      } else if (ToolMessage.isInstance(message)) {
        // The artifact is the structured LookupResult; the content is what the model read.
        const result = message.artifact as LookupResult;
        console.log(
          `evidence: layer ${result.retrievalLayer}, L1 ${result.l1Status}, relevance ${result.relevance.level}`,
        );
        for (const block of result.evidence) console.log(`  ${block.source} (${block.retrievalLayer})`);
      }
    }
    const answer = messages.at(-1);
    console.log(`answer: ${String(answer?.content)}`);
  } finally {
    await lookup.close();
    await rm(tempDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`agent example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
