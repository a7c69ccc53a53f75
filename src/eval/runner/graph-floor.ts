import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { summarizeLatency, type LatencySummary } from "../metrics/latency.js";

const FloorState = Annotation.Root({ query: Annotation<string>, steps: Annotation<number> });

const step = (state: typeof FloorState.State) => ({ steps: (state.steps ?? 0) + 1 });

/**
 * What LangGraph itself costs per lookup here: a graph with the retrieval graph's four steps on
 * its usual path (L0 hints → L1 → collect → dedupe and trace) whose nodes do nothing, invoked
 * `runs` times in this process after a few warm-up runs. A variant's latency minus this floor is
 * what the engines and the evidence handling cost.
 */
export async function measureGraphFloor(runs: number): Promise<LatencySummary> {
  const graph = new StateGraph(FloorState)
    .addNode("l0_hints", step)
    .addNode("l1_search", step)
    .addNode("collect_evidence", step)
    .addNode("dedupe_and_trace", step)
    .addEdge(START, "l0_hints")
    .addEdge("l0_hints", "l1_search")
    .addEdge("l1_search", "collect_evidence")
    .addEdge("collect_evidence", "dedupe_and_trace")
    .addEdge("dedupe_and_trace", END)
    .compile();
  for (let i = 0; i < 5; i++) await graph.invoke({ query: "warm-up", steps: 0 });
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await graph.invoke({ query: `floor ${i}`, steps: 0 });
    latencies.push(performance.now() - started);
  }
  return summarizeLatency(latencies);
}
