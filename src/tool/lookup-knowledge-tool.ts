import { tool } from "@langchain/core/tools";
import { randomUUID } from "node:crypto";
import { createRetrievalGraph, resolveTraceSink } from "../graph/retrieval-graph.js";
import { TOOL_NAME, type RetrievalOptions } from "../graph/options.js";
import { resolveRetrievalOptions } from "../graph/resolve-options.js";
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

/**
 * Creates the `lookup_knowledge` tool. The retrieval graph is compiled once; each call runs it,
 * returns the evidence text for the model and the full {@link LookupResult} as the artifact, and
 * appends one trace line.
 * @example
 * const kb = await KnowledgeBase.load(".index");
 * const lookup = createLookupKnowledgeTool({ knowledgeBase: kb });
 * const agent = createAgent({ model, tools: [lookup] });
 */
export function createLookupKnowledgeTool(options: LookupKnowledgeToolOptions) {
  // One sink for the graph's trace lines and the tool's error lines.
  const { maxLimit } = resolveRetrievalOptions(options);
  const traceSink = resolveTraceSink(options);
  const graph = createRetrievalGraph({ ...options, tracePath: null, ...(traceSink ? { traceSink } : {}) });
  const defaultLimit = Math.min(DEFAULT_LIMIT, maxLimit);

  return tool(
    async (input, config): Promise<[string, LookupResult]> => {
      const invocationId = randomUUID();
      const startedAt = Date.now();
      const request = { query: input.query, domain: input.domain?.trim().toLowerCase() || null, limit: input.limit ?? defaultLimit };
      try {
        const state = await graph.invoke({ ...request, invocationId, startedAt }, config);
        if (state.result === null) throw new Error("the retrieval graph finished without a result");
        return [formatEvidence(state.result, { knownDomains: options.knowledgeBase.domains }), state.result];
      } catch (error) {
        const context = { toolName: TOOL_NAME, startedAt, durationMs: Date.now() - startedAt, input: request, corpusFingerprint: options.knowledgeBase.fingerprint };
        // The lookup's own error is what the caller needs; a failing sink must not replace it.
        await Promise.resolve()
          .then(() => traceSink?.append(toErrorRecord(invocationId, context, error)))
          .catch(() => false);
        throw error;
      }
    },
    { name: TOOL_NAME, description: DESCRIPTION, schema: createLookupKnowledgeSchema(maxLimit), responseFormat: "content_and_artifact" },
  );
}
