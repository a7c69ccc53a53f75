import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import { bagLength, bagOf, type TermBags } from "../text/term-bags.js";
import { defaultCalibration, type CorpusCalibration } from "./calibration.js";
import { deriveCalibration, MIN_PSEUDO_QUERIES } from "./derive-calibration.js";
import { measurePseudoQueries, type MeasureInputs } from "./measure-pseudo-queries.js";
import type { PseudoQuery } from "./pseudo-queries.js";

/** Options of index-time calibration (`KnowledgeBaseOptions.calibration`). */
export interface CalibrationOptions {
  /**
   * Pseudo-queries drawn from the corpus; `0` turns calibration off (the defaults are used and
   * the manifest says so). Each costs one BM25 and one HNSW search, and with custom embeddings
   * one `embedQuery` call plus its share of `embedDocuments` batches.
   * @default 200
   */
  pseudoQueries?: number;
  /** Seed of the pseudo-query draw. @default 42 */
  seed?: number;
}

/** Default number of pseudo-queries. */
export const DEFAULT_PSEUDO_QUERIES = 200;
/** Candidates per layer a calibration measures with: the retrieval graph's default `k`. */
export const CALIBRATION_K = 20;
/** Fewest chunks a calibration is tried on. */
export const MIN_CALIBRATION_CHUNKS = 30;
/**
 * Milliseconds the measurement may take: against a slow embeddings service (each pseudo-query is
 * one `embedQuery` call) it stops there and derives from what it measured, if that is enough.
 */
export const CALIBRATION_BUDGET_MS = 60_000;

/** What a calibration runs on: the engines, the chunks' texts and the build's embeddings limits. */
export interface CalibrationInputs extends MeasureInputs {
  texts: readonly string[];
  /** Milliseconds one embeddings call may take (the build's `embedTimeoutMs`). */
  timeoutMs: number;
  /** Texts per `embedDocuments` call (the build's `embedBatchSize`). */
  batchSize: number;
}

/**
 * From this many chunks per pseudo-query (50,000 at the default 200), the embedder's one fit
 * leaves their sentences out instead of a second fit for the calibration. Below it the second
 * fit is cheap, and holding 200 sentences out of the index's own model costs a small corpus
 * real quality (SciFact train, 5,183 documents: L1 nDCG@10 0.647 → 0.640).
 */
export const SHARED_FIT_CHUNKS_PER_QUERY = 250;

/**
 * The term bags of the corpus with each pseudo-query's sentence taken out of its chunk, for
 * fitting the statistical embedder without it. The vocabulary is copied, never extended in place.
 */
export function heldOutBags(bags: TermBags, queries: readonly PseudoQuery[]): TermBags {
  const vocabulary = { terms: [...bags.terms], termIds: new Map(bags.termIds) };
  const out = bags.bags.slice();
  const lengths = bags.lengths.slice();
  for (const query of queries) {
    out[query.chunk] = bagOf(query.heldOut, vocabulary);
    lengths[query.chunk] = bagLength(out[query.chunk]);
  }
  return { ...vocabulary, bags: out, lengths };
}

/**
 * How the statistical embedder that calibrates leaves the pseudo-queries' sentences out: null
 * for custom embeddings (they never saw the corpus) or no pseudo-queries; else the held-out bags,
 * and whether the index's own fit uses them (`shareFit`, a very large corpus, whose fit samples
 * 20,000 documents, so a second fit would cost the most) or a second model is fitted on them.
 */
export function planHeldOutFit(
  bags: TermBags,
  queries: readonly PseudoQuery[],
  defaultEmbedder: boolean,
): { bags: TermBags; shareFit: boolean } | null {
  if (!defaultEmbedder || queries.length === 0) return null;
  return {
    bags: heldOutBags(bags, queries),
    shareFit: bags.bags.length >= SHARED_FIT_CHUNKS_PER_QUERY * queries.length,
  };
}

/**
 * The defaults, for a corpus that could not be calibrated: with a dense layer, similarities are
 * then left out of the relevance judgement (thresholds of 1), since nothing says what a
 * similarity means for this embedder here (a statistical embedder fitted on 10 chunks rates
 * everything 0.9-1.0; OpenAI-style embeddings rate everything 0.7-0.9).
 */
function uncalibrated(reason: string, inputs: CalibrationInputs): CorpusCalibration {
  const calibration = defaultCalibration(reason);
  if (inputs.vectorIndex === null || inputs.embeddings === null) return calibration;
  return {
    ...calibration,
    note: `${reason}; similarity is not used in the relevance judgement`,
    relevance: { ...calibration.relevance, semanticSupport: 1, strongSimilarity: 1 },
  };
}

/**
 * Calibrates fusion and relevance for this corpus and embedder from pseudo-queries whose source
 * is known (see `samplePseudoQueries`, `deriveCalibration`). A corpus too small, too few usable
 * sentences or embeddings that fail, hang or return garbage give the defaults, with the reason in
 * `note`: the build goes on. Errors other than the embeddings' propagate.
 */
export async function calibrateIndex(
  queries: readonly PseudoQuery[],
  inputs: CalibrationInputs,
  options: CalibrationOptions = {},
): Promise<CorpusCalibration> {
  if (options.pseudoQueries === 0) {
    const off = "turned off (calibration.pseudoQueries is 0)";
    // The defaults' similarity levels are the statistical embedder's; another embedder's mean nothing.
    return inputs.embeddings !== null && !(inputs.embeddings instanceof LsaEmbeddings)
      ? uncalibrated(off, inputs)
      : defaultCalibration(off);
  }
  if (inputs.chunks.length < MIN_CALIBRATION_CHUNKS) {
    return uncalibrated(
      `the corpus has ${inputs.chunks.length} chunks; calibration needs at least ${MIN_CALIBRATION_CHUNKS}`,
      inputs,
    );
  }
  if (queries.length < MIN_PSEUDO_QUERIES) {
    return uncalibrated(
      `only ${queries.length} chunks hold a sentence usable as a question; calibration needs ${MIN_PSEUDO_QUERIES}`,
      inputs,
    );
  }
  try {
    const settings = {
      k: CALIBRATION_K,
      l0Weight: defaultCalibration("").l0Weight,
      timeoutMs: inputs.timeoutMs,
      batchSize: inputs.batchSize,
      budgetMs: CALIBRATION_BUDGET_MS,
    };
    const measured = await measurePseudoQueries(queries, inputs, settings);
    const hasL1 = inputs.vectorIndex !== null && inputs.embeddings !== null;
    const derived = deriveCalibration(measured, CALIBRATION_K, hasL1);
    if (typeof derived === "string") return uncalibrated(derived, inputs);
    if (measured.length === queries.length) return derived;
    const budget = `${measured.length} of ${queries.length} pseudo-queries measured within ${CALIBRATION_BUDGET_MS / 1000} s`;
    return { ...derived, note: derived.note ? `${derived.note}; ${budget}` : budget };
  } catch (error) {
    // Only the embeddings' failures (they throw, hang, return garbage) fall back; a bug is not hidden.
    if (!(error instanceof LookupKnowledgeError) || !error.code.startsWith("EMBEDDINGS_")) throw error;
    return uncalibrated(`the embeddings failed while calibrating (${error.code}: ${errorDetail(error)})`, inputs);
  }
}
