import type { RunnableConfig } from "@langchain/core/runnables";
import { randomUUID } from "node:crypto";
import { internalError, LookupKnowledgeError } from "../errors.js";
import { JsonlTraceSink } from "../trace/jsonl-trace-sink.js";
import { shownJson } from "../shown-value.js";
import { buildRetrievalGraph, type GenerationGraph } from "./build-retrieval-graph.js";
import { DEFAULT_TRACE_PATH, type RetrievalOptions, type RetrievalSource } from "./options.js";
import { applyScope, type AppliedScope } from "../access/access-scope.js";
import {
  accessControlOf,
  checkRetrievalSource,
  resolveRetrievalOptions,
  type RetrievalSettings,
} from "./resolve-options.js";
import { isTraced } from "./traced-errors.js";
import { knownDomains } from "./domain-labels.js";
import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import { NO_RUN_IDENTITY, toolRunIdentity, type RunIdentity } from "../trace/run-identity.js";
import { toErrorRecord, toRefusalRecord } from "../trace/trace-record.js";
import type { LookupResult } from "../types.js";
import { resolveToolName } from "./tool-name.js";

/** The trace sink the options ask for, and whether it was opened here (and so is closed here). */
export interface ResolvedTraceSink {
  /** An injected sink, a JSONL file sink for `tracePath`, or null (no trace). */
  sink: TraceSink | null;
  /** True for the sink made from `tracePath`; an injected sink belongs to the caller. */
  owned: boolean;
}

/** The trace sink the options ask for: an injected one, a JSONL file, or none. @throws LookupKnowledgeError `INVALID_OPTION` for a bad `tracePath`. */
export function resolveTraceSink(options: Pick<RetrievalOptions, "tracePath" | "traceSink">): ResolvedTraceSink {
  if (options.traceSink) return { sink: options.traceSink, owned: false };
  const path = options.tracePath === undefined ? DEFAULT_TRACE_PATH : options.tracePath;
  if (path !== null && (typeof path !== "string" || path.length === 0))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option tracePath must be a file path or null (no trace), got ${shownJson(path)}.`,
    );
  return path === null ? { sink: null, owned: false } : { sink: new JsonlTraceSink(path), owned: true };
}

/** Closes `trace` when it was opened from `tracePath`; never rejects. */
export async function closeOwnedTraceSink(trace: ResolvedTraceSink): Promise<void> {
  if (!trace.owned) return;
  try {
    await trace.sink?.close?.();
  } catch {
    // Closing releases a descriptor; there is nothing a caller could do about a failure.
  }
}

/** One lookup, its domain already trimmed and lower-cased (null: none forced). */
export interface LookupRequest {
  query: string;
  domain: string | null;
  limit: number;
}

/** A call refused before it ran: what of its arguments the trace may keep, and why. */
export interface LookupRefusal {
  /** The arguments as far as they have the lookup's shape (a missing or mistyped field: `""`, null, 0). */
  input: { query: string; domain: string | null; limit: number };
  /** When the call arrived, in epoch milliseconds. */
  startedAt: number;
  /** Why it was refused, in one line (`INVALID_INPUT`). */
  error: LookupKnowledgeError;
}

/** A compiled retrieval graph with its trace, shared by the tool and the retriever. */
export interface LookupRunner {
  /** The `tool_name` of every trace line, success and error alike. */
  readonly name: string;
  readonly source: RetrievalSource;
  readonly settings: RetrievalSettings;
  /** The compiled retrieval graph the lookups run on (what `createRetrievalGraph` returns, with its extras). */
  readonly graph: GenerationGraph;
  /**
   * Runs one lookup; a lookup that throws gets an error trace line, and the error is rethrown.
   * Its trace line carries `identity`: by default the ids a tool function's `config` holds
   * (`toolRunIdentity`: the ToolCall's id, the tool's run id, the thread id).
   */
  run(request: LookupRequest, config?: RunnableConfig, identity?: RunIdentity): Promise<LookupResult>;
  /**
   * The domains anyone this runner serves may be told before a lookup (the tool's description
   * and schema): every domain when unscoped, a fixed scope's readable domains, or, for a scope
   * function, the domains every scope reads (those of unlabelled files under `"allow"`); of the
   * generation current when read, for a followed base.
   */
  readonly sharedDomains: readonly string[];
  /** The domains the scope of a finished lookup may read: what its NO EVIDENCE text may list. */
  domainsOf(result: LookupResult): readonly string[];
  /** Appends the `refused` line of a call whose arguments the input schema refused; a failing sink is ignored. */
  traceRefusal(refusal: LookupRefusal, identity?: RunIdentity): Promise<void>;
  /** Closes the trace file opened for `tracePath`; an injected sink is left to its owner. */
  close(): Promise<void>;
}

/** The scope of a caller in no group: what every scope may read. */
const NO_GROUPS = applyScope({ groups: [] }) as AppliedScope;

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
  const option = settings.access.option;
  // A followed base changes its domains and labels with each generation: read them from the current one.
  let shared: { access: unknown; domains: unknown; list: readonly string[] } | null = null;
  // Checked here too, so that a scope without a base that can enforce it fails when the runner is made.
  accessControlOf(source, settings);
  const sharedDomains = (): readonly string[] => {
    const control = accessControlOf(source, settings);
    if (shared === null || shared.access !== control || shared.domains !== source.domains) {
      const everyDomain = knownDomains(source.domains);
      const list =
        option === null || control === null
          ? everyDomain
          : control.domainsFor(typeof option === "function" ? NO_GROUPS : (applyScope(option) as AppliedScope));
      shared = { access: control, domains: source.domains, list };
    }
    return shared.list;
  };
  const domainsOf = (result: LookupResult): readonly string[] => {
    const control = accessControlOf(source, settings);
    if (option === null || control === null) return knownDomains(source.domains);
    return result.access ? control.domainsFor(result.access) : [];
  };
  const fixedScope = option === null || typeof option === "function" ? null : (applyScope(option) as AppliedScope);
  const traceRefusal = async (refusal: LookupRefusal, identity: RunIdentity = NO_RUN_IDENTITY) => {
    const context = {
      toolName: name,
      startedAt: refusal.startedAt,
      durationMs: Date.now() - refusal.startedAt,
      input: refusal.input,
      corpusFingerprint: source.fingerprint,
      indexGeneration: source.generation ?? null,
      identity,
      access: fixedScope,
    };
    await traceFailure(trace.sink, toRefusalRecord(randomUUID(), context, refusal.error));
  };

  async function run(
    request: LookupRequest,
    config?: RunnableConfig,
    identity: RunIdentity = toolRunIdentity(config),
  ): Promise<LookupResult> {
    const invocationId = randomUUID();
    const startedAt = Date.now();
    try {
      const state = await graph.invoke({ ...request, invocationId, startedAt, runIdentity: identity }, config);
      if (state.result === null) throw internalError("the retrieval graph finished without a result");
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
  return {
    name,
    source,
    settings,
    graph,
    run,
    get sharedDomains() {
      return sharedDomains();
    },
    domainsOf,
    traceRefusal,
    close: () => closeOwnedTraceSink(trace),
  };
}
