import type { RunnableConfig } from "@langchain/core/runnables";
import { randomUUID } from "node:crypto";
import { buildRetrievalGraph, closeOwnedTraceSink, resolveTraceSink } from "../graph/retrieval-graph.js";
import type { RetrievalOptions, RetrievalSource } from "../graph/options.js";
import { applyScope, type AppliedScope } from "../access/access-scope.js";
import {
  accessControlOf,
  checkRetrievalSource,
  resolveRetrievalOptions,
  type RetrievalSettings,
} from "../graph/resolve-options.js";
import { isTraced } from "../graph/traced-errors.js";
import { knownDomains } from "./domain-labels.js";
import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import { toolRunIdentity, type RunIdentity } from "../trace/run-identity.js";
import { toErrorRecord } from "../trace/trace-record.js";
import type { LookupResult } from "../types.js";
import { resolveToolName } from "./tool-name.js";

/** One lookup, its domain already trimmed and lower-cased (null: none forced). */
export interface LookupRequest {
  query: string;
  domain: string | null;
  limit: number;
}

/** A compiled retrieval graph with its trace, shared by the tool and the retriever. */
export interface LookupRunner {
  /** The `tool_name` of every trace line, success and error alike. */
  readonly name: string;
  readonly source: RetrievalSource;
  readonly settings: RetrievalSettings;
  /**
   * Runs one lookup; a lookup that throws gets an error trace line, and the error is rethrown.
   * Its trace line carries `identity`: by default the ids a tool function's `config` holds
   * (`toolRunIdentity`: the ToolCall's id, the tool's run id, the thread id).
   */
  run(request: LookupRequest, config?: RunnableConfig, identity?: RunIdentity): Promise<LookupResult>;
  /**
   * The domains anyone this runner serves may be told before a lookup (the tool's description
   * and schema): every domain when unscoped, a fixed scope's readable domains, or, for a scope
   * function, the domains every scope reads (those of unlabelled files under `"allow"`).
   */
  readonly sharedDomains: readonly string[];
  /** The domains the scope of a finished lookup may read: what its NO EVIDENCE text may list. */
  domainsOf(result: LookupResult): readonly string[];
  /** Closes the trace file opened for `tracePath`; an injected sink is left to its owner. */
  close(): Promise<void>;
}

/** The scope of a caller in no group: what every scope may read. */
const NO_GROUPS = applyScope({ groups: [] }) as AppliedScope;

/** The forced domain as the layers compare it (as the L0 node normalises it): trimmed, lower-cased, null when blank. */
export const normalizeDomain = (domain: string | null | undefined): string | null =>
  domain?.trim().toLowerCase() || null;

/** Appends the error line of a failed lookup; the lookup's own error is what the caller needs, so a failing sink is ignored. */
async function traceFailure(sink: TraceSink | null, record: object): Promise<void> {
  try {
    await sink?.append(record);
  } catch {
    // The lookup's error is rethrown by the caller.
  }
}

/**
 * Resolves the options once (retrieval settings, `name`, knowledge base, trace sink, in that
 * order), compiles the graph and returns what runs a lookup with it.
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the first bad option.
 */
export function createLookupRunner(options: RetrievalOptions & { name?: string }, defaultName: string): LookupRunner {
  const readable = options as Partial<RetrievalOptions & { name: unknown }> | null | undefined;
  const settings = resolveRetrievalOptions(options, readable?.knowledgeBase);
  const name = resolveToolName(readable?.name, defaultName);
  const source = checkRetrievalSource(options.knowledgeBase);
  // One sink for the graph's trace lines and the error lines.
  const trace = resolveTraceSink(options);
  const graph = buildRetrievalGraph(source, settings, trace.sink, name);
  const control = accessControlOf(source, settings);
  const option = settings.access.option;
  const everyDomain = knownDomains(source.domains);
  const sharedDomains =
    option === null || control === null
      ? everyDomain
      : control.domainsFor(typeof option === "function" ? NO_GROUPS : (applyScope(option) as AppliedScope));
  const domainsOf = (result: LookupResult): readonly string[] =>
    option === null || control === null ? everyDomain : result.access ? control.domainsFor(result.access) : [];

  async function run(
    request: LookupRequest,
    config?: RunnableConfig,
    identity: RunIdentity = toolRunIdentity(config),
  ): Promise<LookupResult> {
    const invocationId = randomUUID();
    const startedAt = Date.now();
    try {
      const state = await graph.invoke({ ...request, invocationId, startedAt, runIdentity: identity }, config);
      if (state.result === null) throw new Error("the retrieval graph finished without a result");
      return state.result;
    } catch (error) {
      const context = {
        toolName: name,
        startedAt,
        durationMs: Date.now() - startedAt,
        input: request,
        corpusFingerprint: source.fingerprint,
        indexGeneration: source.generation ?? null,
        identity,
      };
      if (!isTraced(error)) await traceFailure(trace.sink, toErrorRecord(invocationId, context, error));
      throw error;
    }
  }
  return { name, source, settings, run, sharedDomains, domainsOf, close: () => closeOwnedTraceSink(trace) };
}
