import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { JsonlTraceSink, type KnowledgeBase } from "../../src/index.js";
import { BenchError } from "../bench-error.js";
import type { BenchSystem } from "./bench-system.js";

/** The tool's defaults for the stages timed alone (README: `l0.k` 20, `l1.k` 20, `l1.minScore` 0.05). */
export const STAGE_DEFAULTS = { l0Limit: 20, l1K: 20, l1MinScore: 0.05 } as const;

/** Our L0 alone: `kb.l0.search(query, { domain: null, limit: 20 })` (FlexSearch candidates, BM25, hints). */
export function createL0System(kb: KnowledgeBase): BenchSystem {
  return {
    id: "l0",
    label: "our L0 alone",
    role: "stage",
    run: (query) => kb.l0.search(query.text, { domain: null, limit: STAGE_DEFAULTS.l0Limit }),
  };
}

/** Our L1 alone, query embedding included: `kb.l1.search(query, { domain: null, k: 20, minScore: 0.05 })`. */
export function createL1System(kb: KnowledgeBase): BenchSystem {
  const l1 = kb.l1;
  if (l1 === null) throw new BenchError("the knowledge base has no L1 layer; the bench needs the default embedder.");
  return {
    id: "l1",
    label: "our L1 alone (incl. embedding)",
    role: "stage",
    run: (query) => l1.search(query.text, { domain: null, k: STAGE_DEFAULTS.l1K, minScore: STAGE_DEFAULTS.l1MinScore }),
  };
}

/** The query embedding alone: `embeddings.embedQuery(query)`. */
export function createEmbedQuerySystem(embeddings: EmbeddingsInterface): BenchSystem {
  return {
    id: "embed_query",
    label: "query embedding alone",
    role: "stage",
    run: (query) => embeddings.embedQuery(query.text),
  };
}

/**
 * One trace append alone: `new JsonlTraceSink(path).append(record)` with a real record (a line the
 * tool wrote), on a file of its own. A write that fails is an error, not a fast sample.
 */
export function createTraceAppendSystem(path: string, record: object): BenchSystem {
  const sink = new JsonlTraceSink(path);
  return {
    id: "trace_append",
    label: "trace append alone",
    role: "stage",
    async run() {
      if (!(await sink.append(record))) throw new BenchError(`the trace append to ${path} failed.`);
    },
  };
}
