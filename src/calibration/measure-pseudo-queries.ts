import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { withDeadline } from "../l1/deadline.js";
import { createTermCoverage } from "../l0/term-coverage.js";
import type { Bm25Stats } from "../l0/bm25.js";
import { checkedVector } from "../l1/check-vector.js";
import { embedQueryChecked } from "../l1/l1-search.js";
import type { VectorIndex } from "../l1/vector-index.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import type { TermBags } from "../text/term-bags.js";
import { tokenize } from "../text/tokenize.js";
import type { Chunk } from "../types.js";
import { fusedTop, type LayerScores, type PseudoQueryScores } from "./fused-rank.js";
import type { PseudoQuery } from "./pseudo-queries.js";

/** What the top block of a lookup looked like: the signals the relevance judgement reads. */
export interface BlockSignals {
  /** IDF-weighted share of the query's terms the block holds. */
  coverage: number;
  /** Cosine similarity to the query; undefined when the dense layer did not return the block. */
  similarity: number | undefined;
}

/** One pseudo-query, measured. */
export interface PseudoQueryMeasurement {
  scores: PseudoQueryScores;
  /** The held-out target: what a right answer looks like. */
  target: BlockSignals;
  /**
   * The best block outside the target's file at the default weight: what the top block looks
   * like when the corpus does not hold the answer (the file is as good as removed).
   */
  background: BlockSignals | null;
}

/** The engines a measurement runs on. */
export interface MeasureInputs {
  chunks: readonly Chunk[];
  bm25: Bm25Stats;
  vectorIndex: VectorIndex | null;
  embeddings: EmbeddingsInterface | null;
  /**
   * The statistical embedder fitted again with every pseudo-query's sentence held out, for the
   * default embedder only: fitted on the whole corpus, its projection has learnt each sentence's
   * words together with the rest of their chunk, and would find the target however the question
   * is worded. L1 is then asked of a candidate pool (both layers' top chunks and the target),
   * each embedded by this model. Custom embeddings never saw the corpus: the index answers.
   */
  heldOutEmbeddings?: EmbeddingsInterface;
  /** Search texts of the chunks, which the held-out model embeds. Required with it. */
  texts?: readonly string[];
  /**
   * With a statistical held-out model: the chunks' term bags and the held-out ones (bag `i` of
   * `heldOut` is chunk `i` with its pseudo-query's sentence taken out, on a vocabulary that
   * extends the chunks'), so that its vectors need no second tokenization.
   */
  bags?: { chunks: TermBags; heldOut: TermBags };
}

/** Settings of a measurement. */
export interface MeasureSettings {
  /** Candidates per layer, as a lookup keeps them. */
  k: number;
  /** The fusion weight the background's top block is found with. */
  l0Weight: number;
  /** Milliseconds one query embedding may take. */
  timeoutMs: number;
}

/**
 * `embedDocuments` within the deadline a build gives one batch.
 * @throws LookupKnowledgeError `EMBEDDINGS_TIMEOUT` or `EMBEDDINGS_FAILED`.
 */
async function embedDocumentsWithin(model: EmbeddingsInterface, texts: string[], timeoutMs: number): Promise<number[][]> {
  try {
    return await withDeadline(() => model.embedDocuments(texts), {
      timeoutMs,
      onTimeout: () => new LookupKnowledgeError("EMBEDDINGS_TIMEOUT", `embedDocuments did not answer a calibration batch within ${timeoutMs} ms.`),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("EMBEDDINGS_FAILED", `embedDocuments failed on a calibration batch: ${errorDetail(error)}`, { cause: error });
  }
}

/** Held-out texts per `embedDocuments` call. */
const EMBED_BATCH = 64;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** The best-fused chunk of the others, the target's file left out (the lists are fused as the tool fuses them). */
function backgroundTop(scores: PseudoQueryScores, excluded: (chunk: number) => boolean, l0Weight: number, k: number): number | null {
  const strip = (layer: LayerScores) => layer.others.filter(([chunk]) => !excluded(chunk)).slice(0, k);
  return fusedTop(strip(scores.l0), scores.l1 ? strip(scores.l1) : null, l0Weight);
}

/**
 * Asks each pseudo-query of both layers the way a lookup does, with the target's own sentence
 * held out of it: L0's BM25 top `k` of the other chunks plus the target's BM25 on its remaining
 * terms; L1's nearest other chunks plus the target's cosine to its remaining text, embedded with
 * `embedDocuments`. Query embeddings go through the same checks and deadline as a lookup's.
 * @throws the embeddings' errors (`EMBEDDINGS_FAILED`, `EMBEDDINGS_TIMEOUT`, `EMBEDDINGS_INVALID`).
 */
export async function measurePseudoQueries(queries: readonly PseudoQuery[], inputs: MeasureInputs, settings: MeasureSettings): Promise<PseudoQueryMeasurement[]> {
  const { chunks, bm25, vectorIndex, embeddings } = inputs;
  const coverage = createTermCoverage(bm25);
  const dense = vectorIndex !== null && embeddings !== null ? { vectorIndex, embeddings } : null;
  const embedDocuments = (model: EmbeddingsInterface, texts: string[]) => embedDocumentsWithin(model, texts, settings.timeoutMs);
  const heldOutVectors: unknown[] = [];
  for (let at = 0; dense && !inputs.heldOutEmbeddings && at < queries.length; at += EMBED_BATCH) {
    const batch: unknown = await embedDocuments(dense.embeddings, queries.slice(at, at + EMBED_BATCH).map((query) => query.heldOut));
    // Garbage from the embeddings leaves those targets without a similarity, never a crash.
    for (let j = 0; j < Math.min(EMBED_BATCH, queries.length - at); j++) heldOutVectors.push(Array.isArray(batch) ? batch[j] : undefined);
  }
  const out: PseudoQueryMeasurement[] = [];
  for (const [i, pseudo] of queries.entries()) {
    const queryTerms = tokenize(pseudo.query);
    const heldOutTerms = tokenize(pseudo.heldOut);
    const file = chunks[pseudo.chunk].file;
    const sameFile = (chunk: number) => chunks[chunk].file === file;
    const l0Others = bm25.topK(queryTerms, settings.k + 1, (doc) => doc !== pseudo.chunk).map(({ id, score }) => [id, score] as const);
    const l0: LayerScores = { others: l0Others.slice(0, settings.k), target: bm25.scoreTerms(queryTerms, heldOutTerms) };
    let l1: LayerScores | null = null;
    let queryVector: number[] | null = null;
    let targetSimilarity: number | undefined;
    if (dense) {
      queryVector = await embedQueryChecked(dense.embeddings, pseudo.query, dense.vectorIndex.dimensions, { timeoutMs: settings.timeoutMs });
      const hits = dense.vectorIndex.search(queryVector, settings.k + 1).filter((hit) => hit.id !== pseudo.chunk);
      if (inputs.heldOutEmbeddings && inputs.texts) {
        const model = inputs.heldOutEmbeddings;
        const pool = [...new Set([...hits.map((hit) => hit.id), ...l0Others.map(([id]) => id)])];
        const bags = inputs.bags;
        const fromBags = model instanceof LsaEmbeddings && bags !== undefined;
        const poolVectors = fromBags ? pool.map((id) => model.embedBag(bags.chunks.bags[id], bags.heldOut.terms)) : await embedDocuments(model, pool.map((id) => inputs.texts![id]));
        const query = await model.embedQuery(pseudo.query);
        const target = fromBags ? model.embedBag(bags.heldOut.bags[pseudo.chunk], bags.heldOut.terms) : (await embedDocuments(model, [pseudo.heldOut]))[0];
        targetSimilarity = cosine(query, target);
        const others = pool.map((id, j) => [id, cosine(query, poolVectors[j])] as const).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        l1 = { others: others.slice(0, settings.k), target: targetSimilarity };
      } else {
        const heldOut = checkedVector(heldOutVectors[i], dense.vectorIndex.dimensions);
        targetSimilarity = typeof heldOut === "string" ? undefined : cosine(queryVector, heldOut);
        l1 = { others: hits.slice(0, settings.k).map((hit) => [hit.id, hit.similarity] as const), target: targetSimilarity };
      }
    }
    const scores: PseudoQueryScores = { l0, l1 };
    const found = backgroundTop(scores, sameFile, settings.l0Weight, settings.k);
    const distinct = new Set(queryTerms);
    let total = 0;
    let held = 0;
    const heldSet = new Set(heldOutTerms);
    for (const term of distinct) {
      total += bm25.idf(term);
      if (heldSet.has(term)) held += bm25.idf(term);
    }
    out.push({
      scores,
      target: { coverage: total > 0 ? held / total : 0, similarity: targetSimilarity },
      background: found === null ? null : { coverage: coverage(queryTerms, found), similarity: l1?.others.find(([c]) => c === found)?.[1] },
    });
  }
  return out;
}
