import type { AccessOption } from "../access/access-scope.js";
import type { AccessControl } from "../access/chunk-access.js";
import type { L0Searcher } from "../l0/l0-search.js";
import type { L1Searcher } from "../l1/l1-search.js";
import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import type { RelevanceThresholds } from "../ranking/relevance.js";

/** What the graph needs from a knowledge base; {@link KnowledgeBase} provides it. */
export interface RetrievalSource {
  /** The L0 layer. */
  readonly l0: L0Searcher;
  /** The L1 layer; null when the base was built without embeddings. */
  readonly l1: L1Searcher | null;
  /** Hash of the indexed content and index settings. */
  readonly fingerprint: string;
  /** Domains present in the base, named to the model when it asks for an unknown one. */
  readonly domains?: readonly string[];
  /**
   * Fusion weight and relevance thresholds calibrated for this base at index time
   * (`KnowledgeBase.calibration`): the defaults of `fusion.l0Weight` and `relevance`.
   * @default the built-in defaults
   */
  readonly calibration?: { readonly l0Weight: number; readonly relevance: Readonly<RelevanceThresholds> };
  /**
   * Access labels of the base's chunks (`KnowledgeBase.access`): what enforces an `access`
   * scope. A source without it cannot take the `access` option.
   */
  readonly access?: AccessControl;
  /** The committed index generation (`KnowledgeBase.generation`), recorded in each trace line. @default null */
  readonly generation?: string | null;
}

/** One generation of a followed knowledge base, pinned for one lookup. */
export interface PinnedSource<T = RetrievalSource> {
  /** The pinned generation: the lookup runs wholly on it, even when a newer one takes over meanwhile. */
  readonly source: T;
  /** Ends the pin; the generation may then be dropped once it is no longer current. */
  release(): void;
}

/**
 * A source whose generation can change between lookups (`followKnowledgeBase`): each lookup pins
 * one generation and runs wholly on it.
 */
export interface FollowingSource extends RetrievalSource {
  /** Pins the current generation for one lookup; the caller releases the pin when the lookup ends. */
  pin(): PinnedSource;
}

/** True for a source that pins a generation per lookup. */
export const isFollowingSource = (source: RetrievalSource): source is FollowingSource =>
  typeof (source as Partial<FollowingSource>).pin === "function";

/** Options of `createRetrievalGraph` and `createLookupKnowledgeTool`. */
export interface RetrievalOptions {
  /** The indexed knowledge base (`KnowledgeBase.build` or `KnowledgeBase.load`). */
  knowledgeBase: RetrievalSource;
  /**
   * Who is asking: `{ groups }`, or a function of the call's `RunnableConfig` (sync or async)
   * returning it, e.g. `(config) => ({ groups: config.configurable?.groups })`, so that one tool
   * serves each run with its own user's groups. A lookup then sees only the documents whose
   * `access` names one of the groups (and unlabelled ones unless the base denies them), in every
   * layer, hint, trace line and message. It comes from trusted code only: the model's arguments
   * never name or widen it. A function that throws, returns anything but `{ groups: string[] }`
   * or takes longer than `accessTimeoutMs` fails the lookup with `ACCESS_DENIED`.
   * @default none: every lookup reads every document
   */
  access?: AccessOption;
  /** Milliseconds an `access` function may take before the lookup is denied; `0` waits forever. @default 5000 */
  accessTimeoutMs?: number;
  /**
   * JSONL file that gets one `tool_invocation` line per call; `null` turns tracing off. The file
   * is kept open between calls (a rotated or deleted trace is followed within a second, see
   * `JsonlTraceSink`); the tool's or graph's `close()` releases it.
   * @default "traces/tool_invocation.jsonl"
   */
  tracePath?: string | null;
  /**
   * A trace sink to use instead of `tracePath` (useful for testing, or for a `JsonlTraceSink`
   * with other options); it is the caller's to close.
   */
  traceSink?: TraceSink;
  /**
   * Largest `limit` a lookup may ask for (the tool's schema tells the model), from 1 to 1000;
   * evaluation runs raise it to their depth.
   * @default 20
   */
  maxLimit?: number;
  /** The keyword layer. */
  l0?: {
    /** False leaves L0 out: no hints, no keyword candidates, no domain filter from hints. @default true */
    enabled?: boolean;
    /** Keyword candidates kept per lookup (at least the lookup's limit). @default 20 */
    k?: number;
  };
  /** The dense layer. */
  l1?: {
    /** False turns L1 off; lookups answer from L0 with fallback reason `l1_disabled`. @default true */
    enabled?: boolean;
    /** Neighbours fetched per lookup (at least the lookup's limit). @default 20 */
    k?: number;
    /** Dense hits below this cosine similarity are dropped. @default 0.05 */
    minScore?: number;
    /**
     * Milliseconds the dense search (the query embedding above all) may take. When they pass,
     * the lookup answers from L0 with `l1Status: "error"` and the reason in the trace's
     * `l1.error`. The embeddings get an `AbortSignal` as `embedQuery(text, { signal })`, which
     * those that accept one use to cancel their request. `0` waits forever.
     * @default 5000
     */
    timeoutMs?: number;
  };
  /**
   * Thresholds of the relevance assessment, each overriding the knowledge base's calibrated value
   * (`KnowledgeBase.calibration.relevance`, measured at index time for its corpus and embedder).
   * @default the knowledge base's calibration, else RELEVANCE_THRESHOLDS
   */
  relevance?: Partial<RelevanceThresholds>;
  /** How the two layers' scores are fused. */
  fusion?: {
    /** Weight of L0's normalised BM25 score; L1's similarity gets `1 - l0Weight`. @default the knowledge base's calibrated weight, else 0.8 */
    l0Weight?: number;
  };
  /**
   * Caps on the corpus text one lookup returns, in the artifact and in the tool's text alike. A
   * cut block carries `truncated: { shownChars, totalChars }` and the text says so under it;
   * the artifact's `contentTruncated` is then true.
   */
  evidence?: {
    /** Characters of one block's content. @default 4000 */
    maxBlockChars?: number;
    /** Characters of all blocks' content together, given out in rank order. @default 16000 */
    maxTotalChars?: number;
  };
}

/** Options of `createRetrievalGraph`: the retrieval options and the name its trace lines carry. */
export interface RetrievalGraphOptions extends RetrievalOptions {
  /**
   * The trace's `tool_name` on the graph's lines, to tell several graphs (or a graph and a tool)
   * apart in one trace file. 1-64 letters, digits, `_` or `-`; anything else throws `INVALID_OPTION`.
   * @default "lookup_knowledge"
   */
  name?: string;
}

/** Default name of the tool, as the model sees it and as the trace records it. */
export const TOOL_NAME = "lookup_knowledge";
/** Default trace file. */
export const DEFAULT_TRACE_PATH = "traces/tool_invocation.jsonl";
