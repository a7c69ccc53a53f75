import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import type { DocumentInterface } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { ensureConfig, type RunnableConfig } from "@langchain/core/runnables";
import { AsyncLocalStorage } from "node:async_hooks";
import { LookupKnowledgeError } from "../errors.js";
import type { RetrievalOptions } from "../graph/options.js";
import { capText } from "../text/cap-text.js";
import { threadIdOf } from "../trace/run-identity.js";
import { knownDomains, listDomains } from "../graph/domain-labels.js";
import { createLookupRunner, type LookupRunner } from "../graph/lookup-runner.js";
import { normalizeDomain } from "../text/normalize-domain.js";
import { DEFAULT_LIMIT } from "../graph/lookup-schema.js";
import { evidenceToDocuments, type KnowledgeDocumentMetadata } from "./evidence-documents.js";
import { shownJson } from "../shown-value.js";

/** Default `name` of a retriever: the `tool_name` of its trace lines. */
export const DEFAULT_RETRIEVER_NAME = "lookup_knowledge_retriever";

/** Options of {@link createKnowledgeRetriever}: the retrieval options, what every query asks for, and LangChain's retriever fields. */
export interface KnowledgeRetrieverOptions extends RetrievalOptions, BaseRetrieverInput {
  /** Documents (evidence blocks) per query, from 1 to `maxLimit`. @default 5, or `maxLimit` when smaller */
  limit?: number;
  /**
   * Only sections of this domain, trimmed and lower-cased as the tool does; it must be one of
   * the base's `domains` when the base lists any.
   * @default none: the L0 hints choose a domain filter, as for a tool call without `domain`
   */
  domain?: string;
  /**
   * The retriever's run name in callbacks and the `tool_name` of its trace lines, to tell it from
   * the tool in one trace file. 1-64 letters, digits, `_` or `-`.
   * @default "lookup_knowledge_retriever"
   */
  name?: string;
}

function resolveLimit(limit: unknown, maxLimit: number): number {
  if (limit === undefined) return Math.min(DEFAULT_LIMIT, maxLimit);
  if (typeof limit === "number" && Number.isInteger(limit) && limit >= 1 && limit <= maxLimit) return limit;
  throw new LookupKnowledgeError(
    "INVALID_OPTION",
    `option limit must be an integer from 1 to ${maxLimit} (maxLimit), got ${shownJson(limit)}.`,
  );
}

/** `domains`: those a forced domain must be among (empty: any); `listed`: those an error may name (never one only hidden documents hold). */
function resolveDomain(domain: unknown, domains: readonly string[], listed: readonly string[]): string | null {
  if (domain === undefined) return null;
  const normalized = typeof domain === "string" ? normalizeDomain(domain) : null;
  if (normalized === null || normalized.length > 100) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option domain must be a domain name of 1 to 100 characters, got ${typeof domain === "string" ? JSON.stringify(capText(domain, 80)) : typeof domain}.`,
    );
  }
  if (domains.length > 0 && !domains.includes(normalized)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option domain ${JSON.stringify(capText(normalized, 80))} is not a domain of the knowledge base; known domains: ${listDomains(listed) || "none"}.`,
    );
  }
  return normalized;
}

/**
 * A LangChain retriever over a knowledge base: each query runs the retrieval subgraph (the
 * tool's, with the same options) and returns one `Document` per evidence block, in rank order
 * (see `evidenceToDocuments`), and appends one trace line under its own `name`. The callbacks,
 * the signal and the timeout of `invoke` reach the graph; a query the tool would refuse (empty,
 * over 1000 characters) throws `LookupKnowledgeError` `INVALID_INPUT`.
 */
export class KnowledgeBaseRetriever extends BaseRetriever<KnowledgeDocumentMetadata> {
  /** The class name LangChain serialises this retriever under: `"KnowledgeBaseRetriever"`. */
  static override lc_name() {
    return "KnowledgeBaseRetriever";
  }

  /** LangChain's serialisation namespace of this class: `["lookup_knowledge", "retrievers"]`. */
  override lc_namespace = ["lookup_knowledge", "retrievers"];
  /** Documents per query. */
  readonly limit: number;
  /** The domain every query is restricted to; null: none forced. */
  readonly domain: string | null;
  readonly #runner: LookupRunner;
  /** The signal and thread id of the `invoke` in progress: `BaseRetriever` hands `_getRelevantDocuments` only a run manager. */
  readonly #call = new AsyncLocalStorage<{
    signal: AbortSignal | undefined;
    threadId: string | null;
    configurable: RunnableConfig["configurable"];
  }>();

  /** @throws LookupKnowledgeError `INVALID_OPTION` naming the first bad option. */
  constructor(options: KnowledgeRetrieverOptions) {
    const fields = options as Partial<KnowledgeRetrieverOptions> | null | undefined;
    super({ callbacks: fields?.callbacks, tags: fields?.tags, metadata: fields?.metadata, verbose: fields?.verbose });
    this.#runner = createLookupRunner(options, DEFAULT_RETRIEVER_NAME);
    this.name = this.#runner.name;
    this.limit = resolveLimit(options.limit, this.#runner.settings.maxLimit);
    // A fixed scope checks the domain against what it reads, so that a domain only hidden files hold
    // is refused exactly as a missing one; a scope function's callers are not known yet.
    const access = this.#runner.settings.access.option;
    const domains =
      access !== null && typeof access !== "function"
        ? this.#runner.sharedDomains
        : knownDomains(this.#runner.source.domains);
    this.domain = resolveDomain(options.domain, domains, this.#runner.sharedDomains);
  }

  /**
   * Runs one query and returns its evidence as documents, in rank order. The call's signal (or
   * `timeout`), thread id and `configurable` (which an `access` function reads) reach the lookup;
   * the run is named after the retriever unless `options.runName` says otherwise.
   */
  override invoke(input: string, options?: RunnableConfig): Promise<DocumentInterface<KnowledgeDocumentMetadata>[]> {
    // ensureConfig folds in the enclosing run's config (its signal, its thread) and turns a `timeout` into a signal.
    const ensured = ensureConfig(options);
    // The run is named after the retriever, as its trace lines are, unless the call names it.
    // The configurable (the caller's user, for an access function) goes along: BaseRetriever hands it no config.
    return this.#call.run(
      { signal: ensured.signal, threadId: threadIdOf(ensured), configurable: ensured.configurable },
      () => super.invoke(input, { ...options, runName: options?.runName ?? this.name }),
    );
  }

  /**
   * `BaseRetriever`'s hook behind `invoke`: runs the lookup of `query` under the call's signal,
   * thread id and `configurable` (its trace line included, unless tracing is off) and returns one
   * document per evidence block. Call `invoke`, not this.
   */
  override async _getRelevantDocuments(
    query: string,
    runManager?: CallbackManagerForRetrieverRun,
  ): Promise<DocumentInterface<KnowledgeDocumentMetadata>[]> {
    const call = this.#call.getStore();
    const signal = call?.signal;
    const config: RunnableConfig = {
      callbacks: runManager?.getChild(),
      ...(signal ? { signal } : {}),
      ...(call?.configurable ? { configurable: call.configurable } : {}),
    };
    // The trace line names the retriever's own run (no tool call): what LangSmith shows for this query.
    const identity = { toolCallId: null, runId: runManager?.runId ?? null, threadId: call?.threadId ?? null };
    return evidenceToDocuments(
      await this.#runner.run({ query, domain: this.domain, limit: this.limit }, config, identity),
    );
  }

  /**
   * Closes the trace file the retriever opened for `tracePath`; an injected `traceSink` is left
   * to its owner. A query after `close` opens the file again; not calling it is harmless.
   */
  close(): Promise<void> {
    return this.#runner.close();
  }
}

/**
 * Creates a {@link KnowledgeBaseRetriever}: options are resolved and the graph compiled once, here.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a bad name, limit, domain or retrieval option.
 * @example
 * const kb = await KnowledgeBase.load(".index");
 * const retriever = createKnowledgeRetriever({ knowledgeBase: kb, limit: 4 });
 * const docs = await retriever.invoke("How do I roll back a release?");
 * // docs[0].metadata.source, .relevance, .termCoverage...
 */
export function createKnowledgeRetriever(options: KnowledgeRetrieverOptions): KnowledgeBaseRetriever {
  return new KnowledgeBaseRetriever(options);
}
