import { tool } from "@langchain/core/tools";
import { randomUUID } from "node:crypto";
import { buildRetrievalGraph, closeOwnedTraceSink, resolveTraceSink } from "../graph/retrieval-graph.js";
import { TOOL_NAME, type RetrievalOptions } from "../graph/options.js";
import { checkRetrievalSource, resolveRetrievalOptions } from "../graph/resolve-options.js";
import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import { toErrorRecord } from "../trace/trace-record.js";
import type { LookupResult } from "../types.js";
import { formatEvidence } from "./format-evidence.js";
import { createLookupKnowledgeSchema, DEFAULT_LIMIT } from "./schema.js";

/** Options of {@link createLookupKnowledgeTool}: the retrieval options. */
export type LookupKnowledgeToolOptions = RetrievalOptions;

const DESCRIPTION =
  "Look up the company knowledge base (runbooks, policies, procedures) and return quoted evidence blocks with their sources. " +
  "Use it before answering questions about internal operations; cite the `source` of the blocks you rely on. " +
  "If it returns NO EVIDENCE or low relevance, say the knowledge base does not cover the question.";

/** What {@link createLookupKnowledgeTool} adds to the tool. */
export interface LookupKnowledgeToolExtras {
  /**
   * Closes the trace file the tool opened for `tracePath`, once the calls already traced are
   * written; an injected `traceSink` is left to its owner. A call after `close` opens the file
   * again. Not calling it is harmless: the descriptor keeps no process alive and is closed when
   * the tool is garbage-collected.
   */
  close(): Promise<void>;
}

/** Appends the error line of a failed lookup; the lookup's own error is what the caller needs, so a failing sink is ignored. */
async function traceFailure(sink: TraceSink | null, record: object): Promise<void> {
  try {
    await sink?.append(record);
  } catch {
    // The lookup's error is rethrown by the caller.
  }
}

/**
 * Creates the `lookup_knowledge` tool. Options are resolved, the schema made and the retrieval
 * graph compiled once, here; each call runs the graph, returns the evidence text for the model
 * and the full {@link LookupResult} (with its stage `timings`) as the artifact, and appends one
 * trace line through a trace file kept open between calls (`close()` releases it).
 * @example
 * const kb = await KnowledgeBase.load(".index");
 * const lookup = createLookupKnowledgeTool({ knowledgeBase: kb });
 * const agent = createAgent({ model, tools: [lookup] });
 * // ...when done with it:
 * await lookup.close();
 */
export function createLookupKnowledgeTool(options: LookupKnowledgeToolOptions) {
  const settings = resolveRetrievalOptions(options, (options as Partial<RetrievalOptions> | null | undefined)?.knowledgeBase);
  const kb = checkRetrievalSource(options.knowledgeBase);
  // One sink for the graph's trace lines and the tool's error lines.
  const trace = resolveTraceSink(options);
  const graph = buildRetrievalGraph(kb, settings, trace.sink);
  const defaultLimit = Math.min(DEFAULT_LIMIT, settings.maxLimit);

  const lookup = tool(
    async (input, config): Promise<[string, LookupResult]> => {
      const invocationId = randomUUID();
      const startedAt = Date.now();
      const request = { query: input.query, domain: input.domain?.trim().toLowerCase() || null, limit: input.limit ?? defaultLimit };
      try {
        const state = await graph.invoke({ ...request, invocationId, startedAt }, config);
        if (state.result === null) throw new Error("the retrieval graph finished without a result");
        return [formatEvidence(state.result, { knownDomains: kb.domains }), state.result];
      } catch (error) {
        const context = { toolName: TOOL_NAME, startedAt, durationMs: Date.now() - startedAt, input: request, corpusFingerprint: kb.fingerprint };
        await traceFailure(trace.sink, toErrorRecord(invocationId, context, error));
        throw error;
      }
    },
    { name: TOOL_NAME, description: DESCRIPTION, schema: createLookupKnowledgeSchema(settings.maxLimit), responseFormat: "content_and_artifact" },
  );
  const extras: LookupKnowledgeToolExtras = { close: () => closeOwnedTraceSink(trace) };
  return Object.assign(lookup, extras);
}
