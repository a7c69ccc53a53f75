import { MIN_CALIBRATION_CHUNKS } from "../calibration/calibrate-index.js";
import type { CorpusCalibration } from "../calibration/calibration.js";
import { chunkSearchText } from "../corpus/chunk-text.js";
import { loadCorpus, type LoadedCorpus, type PreviousFiles } from "../corpus/load-corpus.js";
import { LookupKnowledgeError } from "../errors.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import { lsaRefitNeeded } from "../l1/embeddings/lsa-drift.js";
import { bagOf, termBagsOf } from "../text/term-bags.js";
import type { Chunk } from "../types.js";
import type { KnowledgeBaseOptions } from "./build-options.js";
import { embedChunks } from "./embed-chunks.js";
import { embedTexts } from "../l1/embeddings/embed-batches.js";
import type { IndexParts } from "./index-parts.js";
import { fingerprintOf, type IndexHistory } from "./manifest.js";
import { planUpdate, type UpdatePlan } from "./plan-update.js";
import { resolveBuildOptions } from "./resolve-build-options.js";
import { resolveVectorIndexOptions } from "../l1/vector-index.js";
import { syncUpdateRows } from "./vector-store-l1-parts.js";
import { corpusOriginOf, type CorpusOrigin } from "./corpus-origin.js";
import { reportCorpus } from "./report-corpus.js";

/**
 * The calibration an update keeps, its note saying so when it no longer fits: the embedder was
 * refitted (its similarities are another model's), or the corpus grew past the calibration's
 * minimum. Measuring again takes a full build (`lookup-knowledge index --full`).
 */
export function keptCalibration(
  calibration: CorpusCalibration,
  why: { refitted: boolean; grewPastMinimum: boolean },
): CorpusCalibration {
  const reason = why.refitted
    ? "the embedder was refitted since"
    : why.grewPastMinimum
      ? `the corpus has grown past ${MIN_CALIBRATION_CHUNKS} chunks since`
      : null;
  if (reason === null) return calibration;
  const stale = `stale: ${reason}; a full build measures again`;
  // Said once, however many updates follow.
  const rest = calibration.note?.replace(/^stale: [^;]*; a full build measures again(; )?/, "") ?? "";
  return { ...calibration, note: rest ? `${stale}; ${rest}` : stale };
}

/**
 * Options of `KnowledgeBase.update`: the corpus folder and how to read and embed it. The index's
 * own settings (BM25, HNSW, embeddings) are kept; to change them, build the index again.
 */
export type UpdateOptions = Pick<
  KnowledgeBaseOptions,
  "corpus" | "embedBatchSize" | "embedTimeoutMs" | "onWarning" | "onProgress"
> & {
  /** The folder the index was built from. */
  corpusDir: string;
};

/** What an incremental re-index changed. */
export interface IndexChanges {
  /** Corpus files new since the last index, sorted. */
  addedFiles: string[];
  /** Corpus files indexed before whose bytes changed, sorted. */
  changedFiles: string[];
  /** Files indexed before that are gone from the corpus or skipped now, sorted. */
  removedFiles: string[];
  /** Files read but not parsed again, because their bytes hash as before. */
  unchangedFiles: number;
  /** Chunks whose postings and vector were kept. */
  chunksKept: number;
  /** Chunks whose search text no chunk of the last index provides: tokenized and embedded. */
  chunksAdded: number;
  /** Chunks of the last index that were not kept. */
  chunksRemoved: number;
  /** What happened to L1: vectors updated in place, the graph rebuilt (too many deletions, or a refit), or no L1. */
  vectors: "updated" | "rebuilt" | "none";
  /** The statistical embedder: kept (new chunks folded in), refitted, or not in use. */
  lsa: "kept" | "refitted" | "not-used";
  /** Why the embedder was kept or refitted (the drift rule's sentence). */
  lsaReason?: string;
  /** Rows written to and deleted from the vector store that holds L1; absent when L1 is HNSW. */
  storeRows?: { written: number; deleted: number };
}

/**
 * Deleted vectors stay in the HNSW graph (hnswlib only marks them); past this share of its
 * vectors the graph is rebuilt from the live vectors, so that searches do not wade through them.
 */
export const MAX_DELETED_VECTOR_SHARE = 0.25;

/** The statistical embedder's vectors of term bags, one after the other. */
function embedBags(embeddings: LsaEmbeddings, bags: readonly Uint32Array[], terms: readonly string[]): Float32Array {
  const out = new Float32Array(bags.length * embeddings.dimensions);
  bags.forEach((bag, i) => embeddings.embedBagInto(bag, terms, out, i * embeddings.dimensions));
  return out;
}

/**
 * Chunks added, changed or removed, a changed chunk counted once: per file, a new chunk and a
 * removed one pair up as one change.
 */
function changedChunkCount(oldChunks: readonly Chunk[], newChunks: readonly Chunk[], plan: UpdatePlan): number {
  const balance = new Map<string, { added: number; removed: number }>();
  const of = (file: string) => {
    let entry = balance.get(file);
    if (!entry) balance.set(file, (entry = { added: 0, removed: 0 }));
    return entry;
  };
  for (const id of plan.added) of(newChunks[id].file).added++;
  plan.renumber.forEach((to, id) => {
    if (to < 0) of(oldChunks[id].file).removed++;
  });
  let count = 0;
  for (const { added, removed } of balance.values()) count += Math.max(added, removed);
  return count;
}

function previousFiles(parts: IndexParts): PreviousFiles {
  const previous = new Map<string, { sha256: string; stamp?: string; chunks: Chunk[] }>();
  let at = 0;
  for (const { file, sha256, chunkCount, stamp } of parts.files ?? []) {
    previous.set(file, { sha256, stamp, chunks: parts.chunks.slice(at, at + chunkCount) });
    at += chunkCount;
  }
  return previous;
}

/**
 * Re-reads `corpusDir` against an index built from it and changes only what the edits touch:
 * files whose content hash is unchanged are not parsed again; chunks whose text is unchanged keep
 * their postings and vectors; the rest are tokenized, embedded (with the index's own embeddings)
 * and added, and removed chunks are deleted from BM25, the hint index and the HNSW graph. L0 then
 * answers exactly as a full rebuild; L1 differs from a rebuild only through the graph's insertion
 * order and, while the drift rule keeps it, the statistical embedder not being refitted.
 * @throws LookupKnowledgeError `INVALID_OPTION` when the index was not built from a corpus folder.
 */
export async function updateIndexParts(
  parts: IndexParts,
  options: UpdateOptions,
): Promise<{ parts: IndexParts; changes: IndexChanges }> {
  if (parts.files === null) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "this knowledge base was built from ready-made chunks, not a corpus folder, so it cannot be updated from one; build it again with KnowledgeBase.build or fromChunks.",
    );
  }
  if (parts.files.some((file) => file.documents !== undefined)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "this knowledge base was built from LangChain documents, not a corpus folder; sync it with kb.syncDocuments(documents).",
    );
  }
  options.onProgress?.({ phase: "load", done: 0, total: 1 });
  const previous = previousFiles(parts);
  const corpus = await loadCorpus(options.corpusDir, options.corpus, previous);
  reportCorpus(corpus, options.onWarning);
  return reindexParts(parts, corpus, new Set(previous.keys()), options, await corpusOriginOf(options.corpusDir));
}

/** How {@link reindexParts} embeds and reports: the update options without the corpus to read. */
export type ReindexOptions = Pick<
  KnowledgeBaseOptions,
  "embedBatchSize" | "embedTimeoutMs" | "onWarning" | "onProgress"
>;

/**
 * Changes `parts` into the index of `corpus`, a re-read of the corpus `parts` was built from
 * (`previousFiles` names its files then; `corpus.reused` the files whose chunks are the very same
 * objects): see {@link updateIndexParts}. Shared by folder updates and document syncs.
 */
export async function reindexParts(
  parts: IndexParts,
  corpus: LoadedCorpus,
  previousFileNames: ReadonlySet<string>,
  options: ReindexOptions,
  corpusOrigin: CorpusOrigin | null,
): Promise<{ parts: IndexParts; changes: IndexChanges }> {
  const { efSearch } = resolveVectorIndexOptions();
  const resolved = {
    ...resolveBuildOptions({ ...options, bm25: parts.settings.bm25, hnsw: { ...parts.settings.hnsw, efSearch } }),
    embedBatchSize: options.embedBatchSize,
    embedTimeoutMs: options.embedTimeoutMs,
    onProgress: options.onProgress,
    onWarning: options.onWarning,
  };
  const progress = options.onProgress ?? (() => {});
  const previous = previousFileNames;
  const plan = planUpdate(parts.chunks, corpus.chunks, chunkSearchText);
  const chunks = corpus.chunks;
  const now = new Set(corpus.files.map(({ file }) => file));
  const addedFiles = corpus.files.filter(({ file }) => !previous.has(file)).map(({ file }) => file);
  const changedFiles = corpus.files
    .filter(({ file }) => previous.has(file) && !corpus.reused.has(file))
    .map(({ file }) => file);
  const removedFiles = [...previous].filter((file) => !now.has(file)).sort();

  progress({ phase: "tokenize", done: 0, total: plan.added.length });
  const vocabulary = { terms: [...parts.bm25.terms], termIds: new Map(parts.bm25.terms.map((term, id) => [term, id])) };
  const addedTexts = plan.added.map((id) => chunkSearchText(chunks[id]));
  const addedBags = addedTexts.map((text) => bagOf(text, vocabulary));
  progress({ phase: "tokenize", done: plan.added.length, total: plan.added.length });
  progress({ phase: "keyword", done: 0, total: plan.added.length });
  const bm25 = parts.bm25.withChanges({
    renumber: plan.renumber,
    size: chunks.length,
    terms: vocabulary.terms,
    added: plan.added.map((id, i) => ({ id, bag: addedBags[i] })),
  });
  progress({ phase: "keyword", done: plan.added.length, total: plan.added.length });

  const history: IndexHistory = { ...parts.history, mode: "incremental" };
  let { embeddings, vectorIndex, settings } = parts;
  let vectors: IndexChanges["vectors"] = embeddings === null ? "none" : "updated";
  let lsa: IndexChanges["lsa"] = "not-used";
  let lsaReason: string | undefined;
  const changedChunks = changedChunkCount(parts.chunks, chunks, plan);
  if (embeddings instanceof LsaEmbeddings) {
    const changedSinceFit = history.changedSinceFit + changedChunks;
    const decision = lsaRefitNeeded({
      fittedDocumentCount: embeddings.fittedOn.documents,
      currentDocumentCount: chunks.length,
      changedSinceFit,
      unknownTermShare: embeddings.unknownTokenShare({ terms: [...bm25.terms], bags: [bm25.collectionFrequencies()] }),
    });
    lsaReason = decision.reason;
    if (decision.refit) {
      const texts = chunks.map(chunkSearchText);
      const dense = await embedChunks(chunks, texts, { ...resolved, embeddings: undefined }, termBagsOf(texts));
      ({ embeddings, vectorIndex } = dense);
      settings = { ...settings, embedder: dense.embedder };
      vectors = "rebuilt";
      lsa = "refitted";
      Object.assign(history, { lsa: "refitted", changedSinceFit: 0, lsaReason });
    } else {
      lsa = "kept";
      Object.assign(history, { lsa: "kept", changedSinceFit, lsaReason });
    }
  }
  if (embeddings !== null && vectors === "updated") {
    const domains = chunks.map((chunk) => chunk.meta.domain);
    const fresh =
      embeddings instanceof LsaEmbeddings
        ? embedBags(embeddings, addedBags, vocabulary.terms)
        : await embedTexts(
            embeddings,
            addedTexts,
            plan.added.map((id) => chunks[id]),
            resolved,
            vectorIndex?.dimensions ?? null,
          );
    if (vectorIndex === null) {
      vectorIndex = (await embedChunks(chunks, chunks.map(chunkSearchText), { ...resolved, embeddings })).vectorIndex;
      vectors = "rebuilt";
    } else {
      progress({ phase: "vectors", done: 0, total: plan.added.length });
      vectorIndex = await vectorIndex.update({
        renumber: plan.renumber,
        add: { vectors: fresh, chunkIds: plan.added },
        domains,
      });
      if (vectorIndex.deletedCount > MAX_DELETED_VECTOR_SHARE * (vectorIndex.size + vectorIndex.deletedCount)) {
        vectorIndex = await vectorIndex.compact(domains, resolved.hnsw);
        vectors = "rebuilt";
      }
      progress({ phase: "vectors", done: plan.added.length, total: plan.added.length });
    }
  }

  // The store's rows, before the hint index changes: a store that fails leaves L0 as it was.
  const { vectorStore, ...storeRows } = await syncUpdateRows(
    parts,
    { chunks, settings, vectorIndex, vectorStore: parts.vectorStore },
    lsa === "refitted",
    resolved,
  );

  // Last, once nothing can fail any more: an update that throws (embeddings down) leaves the hint index as it was.
  parts.hintIndex.remove([...changedFiles, ...removedFiles]);
  parts.hintIndex.add(chunks.filter((chunk) => !corpus.reused.has(chunk.file)));

  return {
    parts: {
      ...parts,
      chunks,
      settings,
      fingerprint: fingerprintOf(chunks, settings),
      skipped: corpus.skipped,
      fileCount: corpus.fileCount,
      files: corpus.files,
      corpus: corpusOrigin,
      bm25,
      embeddings,
      vectorIndex,
      vectorStore,
      history,
      calibration: keptCalibration(parts.calibration, {
        refitted: lsa === "refitted",
        grewPastMinimum: parts.chunks.length < MIN_CALIBRATION_CHUNKS && chunks.length >= MIN_CALIBRATION_CHUNKS,
      }),
    },
    changes: {
      addedFiles,
      changedFiles,
      removedFiles,
      unchangedFiles: corpus.reused.size,
      chunksKept: plan.kept,
      chunksAdded: plan.added.length,
      chunksRemoved: parts.chunks.length - plan.kept,
      vectors,
      lsa,
      ...(lsaReason !== undefined ? { lsaReason } : {}),
      ...(parts.vectorStore !== null ? { storeRows } : {}),
    },
  };
}
