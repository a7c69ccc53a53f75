import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import type { BenchSystem, PreparedSystem } from "./bench-system.js";
import { timed } from "./bench-system.js";

/** State of the floor graph: the query in, one key each node sets. */
const FloorState = Annotation.Root({
  query: Annotation<string>,
  step: Annotation<number>,
});

/** LangGraph's own names for the implicit start and end nodes of a drawn graph. */
const IMPLICIT_NODES = new Set([START, END]);

/** The real nodes of a compiled graph: `getGraph().nodes` without `__start__` and `__end__`. */
export function graphNodeIds(graph: { getGraph(): { nodes: Record<string, unknown> } }): string[] {
  return Object.keys(graph.getGraph().nodes).filter((id) => !IMPLICIT_NODES.has(id));
}

/**
 * An empty LangGraph `StateGraph` of `nodeCount` no-op nodes in a chain, each returning one key:
 * what any graph of that shape costs per `invoke`, whatever its nodes do. The framework floor.
 */
export async function createLangGraphFloor(nodeCount: number): Promise<PreparedSystem> {
  const { value: graph, ms } = await timed(() => {
    // StateGraph's node-name generics cannot follow a loop; this is glue, so it is typed loosely.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const builder: any = new StateGraph(FloorState);
    for (let i = 0; i < nodeCount; i++) builder.addNode(`noop_${i}`, () => ({ step: i }));
    builder.addEdge(START, "noop_0");
    for (let i = 1; i < nodeCount; i++) builder.addEdge(`noop_${i - 1}`, `noop_${i}`);
    builder.addEdge(`noop_${nodeCount - 1}`, END);
    return builder.compile({ name: "bench_floor" }) as { invoke(input: { query: string }): Promise<unknown> };
  });
  const system: BenchSystem = {
    id: "langgraph_floor",
    label: `empty LangGraph (${nodeCount} nodes)`,
    role: "floor",
    run: (query) => graph.invoke({ query: query.text }),
  };
  return { system, setupMs: ms };
}
