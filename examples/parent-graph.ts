// The retrieval subgraph inside your own LangGraph graph. The parent has its own state keys
// (`question`, `relevance`, `sources`, `answerContext`, `route`), so the subgraph runs inside a
// node that maps `question` into the subgraph's input `{ query, domain?, limit? }` and its output
// `result` (a LookupResult) back into parent keys. A conditional edge on `result.relevance.level`
// sends a well-supported lookup to `compose_answer` and a weak or empty one to `escalate`.
//
// (A parent whose state has the keys `query` and `result` can instead add the compiled subgraph
// itself as a node: `.addNode("retrieve", retrieval)`.)
//
//   npx tsx examples/parent-graph.ts
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { fileURLToPath } from "node:url";
// An app imports these from "lookup-knowledge".
import { createRetrievalGraph, KnowledgeBase, type RelevanceAssessment } from "../src/index.js";

const CORPUS_DIR = fileURLToPath(new URL("../corpus", import.meta.url));

/** The parent's own state: nothing here is a key of the retrieval subgraph. */
const SupportState = Annotation.Root({
  question: Annotation<string>,
  relevance: Annotation<RelevanceAssessment["level"] | null>({ reducer: (_, next) => next, default: () => null }),
  sources: Annotation<string[]>({ reducer: (_, next) => next, default: () => [] }),
  answerContext: Annotation<string>({ reducer: (_, next) => next, default: () => "" }),
  route: Annotation<string>({ reducer: (_, next) => next, default: () => "" }),
});
type SupportStateType = typeof SupportState.State;

/** Where the parent goes after retrieval. */
export type AfterRetrieveRoute = "compose_answer" | "escalate";

/** High and medium relevance are worth answering from; low and none go to a human. */
export function routeAfterRetrieve(state: SupportStateType): AfterRetrieveRoute {
  return state.relevance === "high" || state.relevance === "medium" ? "compose_answer" : "escalate";
}

async function main(): Promise<void> {
  const kb = await KnowledgeBase.build({ corpusDir: CORPUS_DIR });
  // tracePath null: no trace file (pass a path to get one JSONL line per lookup).
  const retrieval = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });

  /** Maps the parent's question into the subgraph's input, and its `result` into parent keys. */
  async function retrieve(state: SupportStateType, config?: RunnableConfig): Promise<Partial<SupportStateType>> {
    // Passing `config` on keeps callbacks, tracing and cancellation (`signal`) in one run.
    const { result } = await retrieval.invoke({ query: state.question, limit: 3 }, config);
    if (result === null) throw new Error("the retrieval subgraph returned no result");
    return {
      relevance: result.relevance.level,
      sources: result.evidence.map((block) => block.source),
      answerContext: result.evidence.map((block) => `[${block.source}]\n${block.content.trim()}`).join("\n\n"),
    };
  }

  function composeAnswer(_state: SupportStateType): Partial<SupportStateType> {
    // A real app calls a chat model here with `answerContext` as its context.
    return { route: "compose_answer" };
  }

  function escalate(_state: SupportStateType): Partial<SupportStateType> {
    return { route: "escalate", answerContext: "" };
  }

  const graph = new StateGraph(SupportState)
    .addNode("retrieve", retrieve)
    .addNode("compose_answer", composeAnswer)
    .addNode("escalate", escalate)
    .addEdge(START, "retrieve")
    .addConditionalEdges("retrieve", routeAfterRetrieve, ["compose_answer", "escalate"])
    .addEdge("compose_answer", END)
    .addEdge("escalate", END)
    .compile();

  try {
    for (const question of ["How do I roll back a release?", "What is the airspeed velocity of an unladen swallow?"]) {
      const state = await graph.invoke({ question });
      console.log(`question: ${question}`);
      console.log(`  relevance ${state.relevance} -> ${state.route}`);
      console.log(`  sources: ${state.sources.length > 0 ? state.sources.join(", ") : "(none)"}`);
      if (state.answerContext)
        console.log(
          `  answerContext: ${state.answerContext.length} characters, starting "${state.answerContext.split("\n")[1]?.slice(0, 80)}"`,
        );
    }
  } finally {
    await retrieval.close();
  }
}

main().catch((error: unknown) => {
  console.error(`parent-graph example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
