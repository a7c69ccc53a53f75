import { checkUnlabelled, MAX_GROUP_CHARS } from "../access/access-scope.js";
import { DEFAULT_PSEUDO_QUERIES } from "../calibration/calibrate-index.js";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { resolveBm25Options, type Bm25Options } from "../l0/bm25-options.js";
import { resolveVectorIndexOptions, type VectorIndexOptions } from "../l1/vector-index.js";
import type { Chunk } from "../types.js";
import type { KnowledgeBaseOptions } from "./build-options.js";
import { DEFAULT_EMBED_BATCH_SIZE, DEFAULT_EMBED_TIMEOUT_MS } from "../l1/embeddings/embed-batches.js";
import { shownJson } from "../shown-value.js";

/** The build options that have defaults, applied and checked. */
export interface BuildSettings {
  bm25: Required<Bm25Options>;
  hnsw: Required<VectorIndexOptions>;
  embedBatchSize: number;
  embedTimeoutMs: number;
  calibration: { pseudoQueries: number; seed: number };
}

function isEmbeddings(value: unknown): boolean {
  const candidate = value as { embedDocuments?: unknown; embedQuery?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.embedDocuments === "function" &&
    typeof candidate.embedQuery === "function"
  );
}

/** Checks a folder argument of `build`, `save` or `load`. @throws LookupKnowledgeError `INVALID_OPTION`. */
export function checkFolder(name: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `${name} must be a folder path (a non-empty string), got ${value === null ? "null" : typeof value}.`,
    );
  return value;
}

/**
 * Applies the defaults of the build options and checks every value before any work starts, so
 * that a bad option is one clear error rather than a failure deep inside an engine.
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the option.
 */
export function resolveBuildOptions(options: KnowledgeBaseOptions): BuildSettings {
  try {
    const settings = resolveReadable(options);
    checkUnlabelled(options.unlabelled);
    return settings;
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("INVALID_OPTION", `the build options cannot be read (${errorMessage(error)}).`, {
      cause: error,
    });
  }
}

const OBJECT_OPTIONS = ["corpus", "lsa", "bm25", "hnsw", "calibration"] as const;
const FUNCTION_OPTIONS = ["onWarning", "onProgress"] as const;

function resolveReadable(options: KnowledgeBaseOptions): BuildSettings {
  if (typeof options !== "object" || options === null)
    throw new LookupKnowledgeError("INVALID_OPTION", "the build options must be an object.");
  for (const key of OBJECT_OPTIONS) {
    const value: unknown = options[key];
    if (value !== undefined && (typeof value !== "object" || value === null))
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `option ${key} must be an object or left out, got ${shownJson(value)}.`,
      );
  }
  for (const key of FUNCTION_OPTIONS) {
    const value: unknown = options[key];
    if (value !== undefined && typeof value !== "function")
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `option ${key} must be a function or left out, got ${shownJson(value)}.`,
      );
  }
  if (options.embeddings !== undefined && options.embeddings !== null && !isEmbeddings(options.embeddings)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option embeddings must be LangChain embeddings (with embedDocuments and embedQuery), null for an L0-only base, or left out for the built-in statistical embedder.",
    );
  }
  const { embedBatchSize = DEFAULT_EMBED_BATCH_SIZE, embedTimeoutMs = DEFAULT_EMBED_TIMEOUT_MS } = options;
  if (!Number.isInteger(embedBatchSize) || embedBatchSize < 1) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option embedBatchSize must be an integer from 1, got ${String(embedBatchSize)}.`,
    );
  }
  if (typeof embedTimeoutMs !== "number" || Number.isNaN(embedTimeoutMs) || embedTimeoutMs < 0) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option embedTimeoutMs must be a number of milliseconds from 0 (0 waits forever), got ${String(embedTimeoutMs)}.`,
    );
  }
  const { pseudoQueries = DEFAULT_PSEUDO_QUERIES, seed = 42 } = options.calibration ?? {};
  if (!Number.isInteger(pseudoQueries) || pseudoQueries < 0 || pseudoQueries > 10_000) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option calibration.pseudoQueries must be an integer from 0 (off) to 10000, got ${String(pseudoQueries)}.`,
    );
  }
  if (!Number.isInteger(seed))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option calibration.seed must be an integer, got ${String(seed)}.`,
    );
  return {
    bm25: resolveBm25Options(options.bm25 ?? {}),
    hnsw: resolveVectorIndexOptions(options.hnsw),
    embedBatchSize,
    embedTimeoutMs,
    calibration: { pseudoQueries, seed },
  };
}

const isStringList = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
const isAccessList = (value: unknown) =>
  isStringList(value) &&
  value.every((group) => group.length > 0 && group.length <= MAX_GROUP_CHARS && group.trim() === group);

/**
 * What is wrong with a ready-made chunk, or null: `source`, `file` and `content` strings, a
 * string `breadcrumb` list, and `meta` with string lists (`keywords`, `entities`, `aliases`) and
 * optional string `title` and `domain`, and an optional `access` list of group names.
 */
export function chunkProblem(chunk: unknown): string | null {
  if (typeof chunk !== "object" || chunk === null) return "is not an object";
  const c = chunk as Partial<Record<keyof Chunk, unknown>>;
  if (typeof c.source !== "string" || c.source.length === 0) return "has no source string";
  if (typeof c.file !== "string" || typeof c.content !== "string") return "needs file and content strings";
  if (c.title !== undefined && typeof c.title !== "string") return "has a title that is not a string";
  if (!isStringList(c.breadcrumb)) return "needs a breadcrumb list of strings";
  const meta = c.meta as Record<string, unknown> | null | undefined;
  if (typeof meta !== "object" || meta === null) return "has no meta object";
  if (!isStringList(meta.keywords) || !isStringList(meta.entities) || !isStringList(meta.aliases))
    return "needs meta.keywords, meta.entities and meta.aliases lists of strings";
  if (
    (meta.title !== undefined && typeof meta.title !== "string") ||
    (meta.domain !== undefined && typeof meta.domain !== "string")
  )
    return "has a meta title or domain that is not a string";
  if (meta.access !== undefined && !isAccessList(meta.access))
    return `has a meta.access that is not a list of group names (trimmed, 1-${MAX_GROUP_CHARS} characters each)`;
  return null;
}

/** From this many chunks, the HNSW build uses {@link LARGE_CORPUS_EF_CONSTRUCTION} unless `hnsw.efConstruction` is given. */
export const LARGE_CORPUS_CHUNKS = 50_000;
/**
 * `efConstruction` of a large corpus: at 100k SciFact chunks it halves the graph build (about 53 s
 * to 26 s here) for a recall@10 against exact search of 0.918 instead of 0.948 (efSearch 100).
 */
export const LARGE_CORPUS_EF_CONSTRUCTION = 100;

/** The resolved options with the size-dependent defaults of a corpus of `chunkCount` chunks. */
export function withLargeCorpusDefaults(
  resolved: BuildSettings,
  options: KnowledgeBaseOptions,
  chunkCount: number,
): BuildSettings {
  if (chunkCount < LARGE_CORPUS_CHUNKS || options.hnsw?.efConstruction !== undefined) return resolved;
  return { ...resolved, hnsw: { ...resolved.hnsw, efConstruction: LARGE_CORPUS_EF_CONSTRUCTION } };
}
