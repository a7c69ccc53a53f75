import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { LookupKnowledgeError } from "../errors.js";
import { createTermCoverage, termCoverage } from "../l0/term-coverage.js";
import type { Bm25Stats } from "../l0/bm25.js";
import { embedQueryChecked } from "../l1/l1-search.js";
import type { VectorIndex } from "../l1/vector-index.js";
import type { LsaEmbeddings } from "../l1/embeddings/index.js";
import { embedTexts } from "../l1/embeddings/embed-batches.js";
import type { TermBags } from "../text/term-bags.js";
import { tokenize } from "../text/tokenize.js";
import type { Chunk } from "../types.js";
import { fusedTop, type LayerScores, type PseudoQueryScores } from "../ranking/fused-rank.js";
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
   * each embedded by this model from its term bag: `bags.chunks` are the chunks', `bags.heldOut`
   * the held-out ones (bag `i` is chunk `i` without its pseudo-query's sentence, on a vocabulary
   * that extends the chunks'). Custom embeddings never saw the corpus: the index answers.
   */
  heldOut?: { model: LsaEmbeddings; bags: { chunks: TermBags; heldOut: TermBags } };
  /** Search texts of the chunks: a chunk holding a question's sentence verbatim is a copy of its answer. */
  texts?: readonly string[];
}

/** Settings of a measurement. */
export interface MeasureSettings {
  /** Candidates per layer, as a lookup keeps them. */
  k: number;
  /** The fusion weight the background's top block is found with. */
  l0Weight: number;
  /** Milliseconds one embeddings call may take. */
  timeoutMs: number;
  /** Texts per `embedDocuments` call (the build's `embedBatchSize`). */
  batchSize: number;
  /** Milliseconds the whole measurement may take; it stops after the pseudo-query that passes them. */
  budgetMs: number;
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
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

/** Candidates fetched beyond `k` per layer, so that dropping copies of the answer still leaves `k`. */
const COPY_SLACK = 10;

/** {@link embedQueryChecked} with a timeout that names the build's option. */
async function embedQuery(
  embeddings: EmbeddingsInterface,
  query: string,
  dimensions: number,
  timeoutMs: number,
): Promise<number[]> {
  try {
    return await embedQueryChecked(embeddings, query, dimensions, { timeoutMs });
  } catch (error) {
    if (error instanceof LookupKnowledgeError && error.code === "EMBEDDINGS_TIMEOUT") {
      throw new LookupKnowledgeError(
        "EMBEDDINGS_TIMEOUT",
        `embedQuery did not answer a calibration question within ${timeoutMs} ms; raise embedTimeoutMs if the service is this slow.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The best-fused chunk of the others, the target's file left out (the lists are fused as the tool fuses them). */
function backgroundTop(
  scores: PseudoQueryScores,
  excluded: (chunk: number) => boolean,
  l0Weight: number,
  k: number,
): number | null {
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
export async function measurePseudoQueries(
  queries: readonly PseudoQuery[],
  inputs: MeasureInputs,
  settings: MeasureSettings,
): Promise<PseudoQueryMeasurement[]> {
  const { chunks, bm25, vectorIndex, embeddings } = inputs;
  const coverage = createTermCoverage(bm25);
  const dense = vectorIndex !== null && embeddings !== null ? { vectorIndex, embeddings } : null;
  const started = performance.now();
  // Checked as a build checks its batches: garbage throws here, which the caller turns into the defaults.
  const heldOutVectors =
    dense && !inputs.heldOut
      ? await embedTexts(
          dense.embeddings,
          queries.map((query) => query.heldOut),
          queries.map((query) => chunks[query.chunk]),
          { embedBatchSize: settings.batchSize, embedTimeoutMs: settings.timeoutMs },
          dense.vectorIndex.dimensions,
        )
      : new Float32Array(0);
  const rowOf = (i: number) =>
    heldOutVectors.subarray(i * (dense?.vectorIndex.dimensions ?? 0), (i + 1) * (dense?.vectorIndex.dimensions ?? 0));
  const manyFiles = new Set(chunks.map((chunk) => chunk.file)).size > 1;
  const out: PseudoQueryMeasurement[] = [];
  for (const [i, pseudo] of queries.entries()) {
    if (performance.now() - started > settings.budgetMs) break;
    const queryTerms = tokenize(pseudo.query);
    const heldOutTerms = tokenize(pseudo.heldOut);
    const file = chunks[pseudo.chunk].file;
    // A chunk that holds the question's sentence verbatim is a copy of the answer, not another block.
    const copy = (chunk: number) => inputs.texts?.[chunk]?.includes(pseudo.query) === true;
    const notCopy = (doc: number) => doc !== pseudo.chunk && !copy(doc);
    // The background is what lies outside the question's file (its own section in a one-file corpus).
    const sameFile = (chunk: number) => manyFiles && chunks[chunk].file === file;
    // Copies are dropped from a few more than k candidates: checking every scored chunk would cost
    // a text scan per posting.
    const l0Others = bm25
      .topK(queryTerms, settings.k + COPY_SLACK, (doc) => doc !== pseudo.chunk)
      .filter(({ id }) => !copy(id))
      .slice(0, settings.k)
      .map(({ id, score }) => [id, score] as const);
    const l0: LayerScores = { others: l0Others, target: bm25.scoreTerms(queryTerms, heldOutTerms) };
    let l1: LayerScores | null = null;
    let targetSimilarity: number | undefined;
    if (dense) {
      const queryVector = await embedQuery(
        dense.embeddings,
        pseudo.query,
        dense.vectorIndex.dimensions,
        settings.timeoutMs,
      );
      const hits = dense.vectorIndex
        .search(queryVector, settings.k + 1 + COPY_SLACK)
        .filter((hit) => notCopy(hit.id))
        .slice(0, settings.k + 1);
      if (inputs.heldOut) {
        const { model, bags } = inputs.heldOut;
        const pool = [...new Set([...hits.map((hit) => hit.id), ...l0Others.map(([id]) => id)])];
        const poolVectors = pool.map((id) => model.embedBag(bags.chunks.bags[id], bags.heldOut.terms));
        const query = await model.embedQuery(pseudo.query);
        targetSimilarity = cosine(query, model.embedBag(bags.heldOut.bags[pseudo.chunk], bags.heldOut.terms));
        const others = pool
          .map((id, j) => [id, cosine(query, poolVectors[j])] as const)
          .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        l1 = { others: others.slice(0, settings.k), target: targetSimilarity };
      } else {
        targetSimilarity = cosine(queryVector, rowOf(i));
        l1 = {
          others: hits.slice(0, settings.k).map((hit) => [hit.id, hit.similarity] as const),
          target: targetSimilarity,
        };
      }
    }
    const scores: PseudoQueryScores = { l0, l1 };
    const found = backgroundTop(scores, sameFile, settings.l0Weight, settings.k);
    const heldSet = new Set(heldOutTerms);
    out.push({
      scores,
      target: { coverage: termCoverage(bm25, queryTerms, (term) => heldSet.has(term)), similarity: targetSimilarity },
      background:
        found === null
          ? null
          : { coverage: coverage(queryTerms, found), similarity: l1?.others.find(([c]) => c === found)?.[1] },
    });
  }
  return out;
}
