import { checkUnlabelled } from "../access/access-scope.js";
import { calibrateIndex, MIN_CALIBRATION_CHUNKS, planHeldOutFit } from "../calibration/calibrate-index.js";
import { samplePseudoQueries } from "../calibration/pseudo-queries.js";
import { chunkSearchText } from "../corpus/chunk-text.js";
import type { IndexedFile } from "../corpus/load-corpus.js";
import { LookupKnowledgeError } from "../errors.js";
import { Bm25Stats } from "../l0/bm25.js";
import { HintIndex } from "../l0/hint-index.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import { termBagsOf } from "../text/term-bags.js";
import { TOKENIZER_VERSION } from "../text/tokenize.js";
import type { Chunk, SkippedFile } from "../types.js";
import type { KnowledgeBaseOptions } from "./build-options.js";
import type { CorpusOrigin } from "./corpus-origin.js";
import { embedChunks } from "./embed-chunks.js";
import type { IndexParts } from "./index-parts.js";
import { fingerprintOf, type IndexHistory, type IndexSettings } from "./manifest.js";
import { chunkProblem, resolveBuildOptions, withLargeCorpusDefaults } from "./resolve-build-options.js";
import { writeBuildRows } from "./vector-store-l1-parts.js";
import { checkVectorStoreOption } from "./vector-store-option.js";

/** Where the chunks of a full build came from, when a corpus folder was read. */
export interface BuildOrigin {
  /** Corpus files that were not indexed. @default none */
  skipped?: SkippedFile[];
  /** Files read. @default the chunk count */
  fileCount?: number;
  /** The indexed files with their hashes. @default null (ready-made chunks) */
  files?: IndexedFile[];
  /** The corpus folder. @default null (ready-made chunks) */
  corpus?: CorpusOrigin;
}

/**
 * A full build of every part of an index from `chunks` (each checked, sources unique): term bags,
 * the hint index and BM25 (L0), the embedder and the HNSW graph (L1), the calibration measured on
 * pseudo-queries, and the rows of a vector store when `options.vectorStore` is one. Progress
 * goes to `options.onProgress`, phase by phase.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a malformed chunk, a shared source or an option out of range; the embedding errors of a build.
 */
export async function buildIndexParts(
  chunks: Chunk[],
  options: KnowledgeBaseOptions,
  origin: BuildOrigin,
): Promise<IndexParts> {
  const progress = options.onProgress ?? (() => {});
  const resolved = withLargeCorpusDefaults(resolveBuildOptions(options), options, chunks.length);
  const store =
    options.vectorStore === undefined ? null : checkVectorStoreOption(options.vectorStore, options.embeddings);
  if (!Array.isArray(chunks)) throw new LookupKnowledgeError("INVALID_OPTION", "fromChunks needs an array of chunks.");
  const seen = new Set<string>();
  for (const [i, chunk] of chunks.entries()) {
    const problem = chunkProblem(chunk);
    if (problem !== null)
      throw new LookupKnowledgeError("INVALID_OPTION", `chunk ${i + 1} ${problem}; see the Chunk type.`);
    if (seen.has(chunk.source))
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `two chunks share the source "${chunk.source}"; every chunk needs its own source id, since evidence is deduplicated by it.`,
      );
    seen.add(chunk.source);
  }
  const texts = chunks.map(chunkSearchText);
  progress({ phase: "tokenize", done: 0, total: chunks.length });
  const bags = termBagsOf(texts);
  progress({ phase: "tokenize", done: chunks.length, total: chunks.length });
  progress({ phase: "keyword", done: 0, total: chunks.length });
  const hintIndex = HintIndex.build(chunks);
  const bm25Options = resolved.bm25;
  const bm25 = Bm25Stats.fromBags(bags, bm25Options);
  progress({ phase: "keyword", done: chunks.length, total: chunks.length });
  const pseudoQueries =
    resolved.calibration.pseudoQueries > 0 && chunks.length >= MIN_CALIBRATION_CHUNKS
      ? samplePseudoQueries(texts, resolved.calibration.pseudoQueries, resolved.calibration.seed)
      : [];
  // The statistical embedder that calibrates must not have learnt the pseudo-queries' sentences.
  const held = planHeldOutFit(bags, pseudoQueries, options.embeddings === undefined);
  const { embeddings, vectorIndex, embedder } = await embedChunks(
    chunks,
    texts,
    { ...options, ...resolved },
    bags,
    held?.shareFit ? held.bags : undefined,
  );
  const model =
    held === null || !(embeddings instanceof LsaEmbeddings)
      ? null
      : held.shareFit
        ? embeddings
        : LsaEmbeddings.fitBags(held.bags, options.lsa);
  const heldOut = model && held ? { model, bags: { chunks: bags, heldOut: held.bags } } : undefined;
  const limits = { timeoutMs: resolved.embedTimeoutMs, batchSize: resolved.embedBatchSize };
  const calibration = await calibrateIndex(
    pseudoQueries,
    { chunks, texts, bm25, vectorIndex, embeddings, ...(heldOut ? { heldOut } : {}), ...limits },
    resolved.calibration,
  );
  const { efSearch: _efSearch, ...hnsw } = resolved.hnsw;
  const settings: IndexSettings = {
    tokenizerVersion: TOKENIZER_VERSION,
    bm25: bm25Options,
    hnsw,
    embedder,
    ...(checkUnlabelled(options.unlabelled) === "deny" ? { unlabelled: "deny" as const } : {}),
  };
  const parts = {
    chunks,
    fingerprint: fingerprintOf(chunks, settings),
    skipped: origin.skipped ?? [],
    fileCount: origin.fileCount ?? chunks.length,
    files: origin.files ?? null,
    corpus: origin.corpus ?? null,
    hintIndex,
    bm25,
    embeddings,
    vectorIndex,
    settings,
    history: {
      mode: "full",
      lsa: embeddings instanceof LsaEmbeddings ? "fitted" : null,
      changedSinceFit: 0,
    } satisfies IndexHistory,
    calibration,
  };
  const vectorStore =
    store === null ? null : await writeBuildRows(parts, store, { ...resolved, onWarning: options.onWarning });
  return { ...parts, vectorStore };
}
