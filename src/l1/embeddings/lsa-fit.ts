import { LookupKnowledgeError } from "../../errors.js";
import { termBagsOf, type TermBags } from "../../text/term-bags.js";
import { bagDocumentFrequencies, modelIndexOfIds, rankVocabulary, TermWeigher } from "./bag-weights.js";
import { mulberry32 } from "./linear-algebra.js";
import type { LsaEmbeddingsOptions } from "./lsa-options.js";
import { LSA_MODEL_VERSION, type LsaModelHeader } from "./lsa-model-header.js";
import { randomizedSvd, type TruncatedSvd } from "./randomized-svd.js";
import type { SparseMatrix } from "./sparse-matrix.js";
import { inverseDocumentFrequency } from "./term-weights.js";

/** A fitted LSA model in its serialisable form. */
export interface FittedLsaModel {
  /** Everything but the projection. */
  header: LsaModelHeader;
  /** Term-major `terms × (dimensions - 1)` projection `V Σ^-1/2`. */
  projection: Float32Array;
}

/** Default of {@link LsaEmbeddingsOptions.maxFitDocuments}. */
export const DEFAULT_MAX_FIT_DOCUMENTS = 20_000;

/**
 * Fits LSA on a corpus: vocabulary, log-TF × IDF document rows (L2-normalised), randomized
 * truncated SVD, fold-in projection. Pure and deterministic: same texts and options give a
 * bit-identical result. Output length is `min(dimensions, min(documents, vocabulary) + 1)`,
 * at least 1: one axis per component the corpus supports plus the reserved unknown-text axis.
 * @throws LookupKnowledgeError `INVALID_OPTION` when an option is out of range.
 */
export function fitLsaModel(texts: readonly string[], options: LsaEmbeddingsOptions): FittedLsaModel {
  return fitLsaModelFromBags(termBagsOf(texts), options);
}

/**
 * {@link fitLsaModel} on texts already tokenized into term bags: the same model, bit for bit, as
 * fitting the texts the bags came from (the vocabulary's order depends only on document
 * frequencies and the terms themselves, never on bag ids).
 *
 * Above `maxFitDocuments` documents the SVD is fitted on an evenly spread sample of that many
 * (see {@link fitSample}), which bounds the fit's cost. The vocabulary and its document
 * frequencies (the IDF) still come from the whole corpus, and a term the sample lacks gets its
 * projection row from the documents that hold it (see {@link foldInUnseenTerms}), so no term of
 * the corpus is lost. Every document is then folded in through the projection like any other text.
 * @throws LookupKnowledgeError `INVALID_OPTION` when an option is out of range.
 */
export function fitLsaModelFromBags(bags: TermBags, options: LsaEmbeddingsOptions): FittedLsaModel {
  const documentCount = bags.bags.length;
  const fitOptions = {
    dimensions: checkInteger("dimensions", options.dimensions ?? defaultDimensions(documentCount), 1),
    seed: checkInteger("seed", options.seed ?? 42),
    powerIterations: checkInteger("powerIterations", options.powerIterations ?? 0, 0),
    minDocumentFrequency: checkInteger("minDocumentFrequency", options.minDocumentFrequency ?? 1, 1),
    maxVocabulary: checkInteger("maxVocabulary", options.maxVocabulary ?? 100_000, 1),
    maxFitDocuments: checkInteger("maxFitDocuments", options.maxFitDocuments ?? DEFAULT_MAX_FIT_DOCUMENTS, 1),
  };
  const sample = fitSample(documentCount, fitOptions.maxFitDocuments, fitOptions.seed);
  const vocabulary = rankVocabulary(bags.terms, bagDocumentFrequencies(bags.bags, bags.terms.length), fitOptions);
  const { terms, documentFrequencies } = vocabulary;
  const idf = Float64Array.from(documentFrequencies, (df) => inverseDocumentFrequency(df, documentCount));
  const modelIndexOf = modelIndexOfIds(vocabulary.ids, bags.terms.length);
  const rows = sample ?? Int32Array.from({ length: documentCount }, (_, i) => i);
  const matrix = weightedRows(bags.bags, rows, modelIndexOf, idf);
  const dimensions = Math.max(1, Math.min(fitOptions.dimensions, Math.min(rows.length, terms.length) + 1));
  const svd = randomizedSvd(matrix, {
    components: dimensions - 1,
    seed: fitOptions.seed,
    powerIterations: fitOptions.powerIterations,
  });
  if (sample !== null) foldInUnseenTerms(bags.bags, matrix, modelIndexOf, idf, svd);
  const header: LsaModelHeader = {
    kind: "lsa",
    version: LSA_MODEL_VERSION,
    dimensions,
    documentCount,
    svdDocumentCount: rows.length,
    terms,
    documentFrequencies,
    singularValues: Array.from(svd.singularValues),
    fitOptions,
  };
  return { header, projection: foldInProjection(svd.rightVectors, svd.singularValues) };
}

/**
 * The documents the SVD is fitted on: `null` (all of them) for a corpus of at most `maxDocuments`,
 * otherwise exactly `maxDocuments` document numbers, ascending, one drawn uniformly from each of
 * `maxDocuments` equal consecutive strata, so that every part of the corpus (corpora are ordered
 * by folder) is represented. Seeded, hence repeatable.
 */
export function fitSample(documentCount: number, maxDocuments: number, seed: number): Int32Array | null {
  if (documentCount <= maxDocuments) return null;
  // Its own stream: the SVD's test matrix uses mulberry32(seed) itself.
  const random = mulberry32(seed ^ 0x5bd1e995);
  const sample = new Int32Array(maxDocuments);
  for (let j = 0; j < maxDocuments; j++) {
    const low = Math.floor((j * documentCount) / maxDocuments);
    const high = Math.floor(((j + 1) * documentCount) / maxDocuments);
    sample[j] = low + Math.floor(random() * (high - low));
  }
  return sample;
}

/**
 * Gives every term the sample lacks (a zero row of `V`, since the SVD never saw it) the row the
 * SVD's own identity `V = Aᵀ U Σ⁻¹` gives it over the whole corpus: each document holding such a
 * term is folded in (`u = a V Σ⁻¹`), and the term's row is the weighted sum of those documents'
 * `u`, times `Σ⁻¹`. Rows of terms the sample holds are left as fitted. Without this, terms outside
 * the sample are unknown to the model: on SciFact fitted on a 2,500-of-5,183 sample, test nDCG@10
 * of L1 alone was 0.56-0.58 with zero rows and 0.60 with folded-in rows (0.63 fitted on all);
 * on a 1,000 sample 0.45-0.47 against 0.55-0.56.
 */
function foldInUnseenTerms(
  bags: readonly Uint32Array[],
  sample: SparseMatrix,
  modelIndexOf: Int32Array,
  idf: Float64Array,
  svd: TruncatedSvd,
): void {
  const { singularValues, rightVectors: v } = svd;
  const k = singularValues.length;
  const seen = new Uint8Array(idf.length);
  for (let e = 0; e < sample.columnIndex.length; e++) seen[sample.columnIndex[e]] = 1;
  const inverse = Float64Array.from(singularValues, (sigma) => (sigma > 0 ? 1 / sigma : 0));
  const unseenSums = new Float64Array(v.length);
  const weigher = new TermWeigher(idf);
  const u = new Float64Array(k);
  for (const bag of bags) {
    const count = weigher.weighBag(bag, modelIndexOf);
    const { indices, values } = weigher;
    let unseen = false;
    for (let e = 0; e < count && !unseen; e++) unseen = seen[indices[e]] === 0;
    if (!unseen) continue;
    u.fill(0);
    for (let e = 0; e < count; e++) {
      if (seen[indices[e]] === 0) continue;
      const row = indices[e] * k;
      for (let c = 0; c < k; c++) u[c] += values[e] * v[row + c];
    }
    for (let c = 0; c < k; c++) u[c] *= inverse[c];
    for (let e = 0; e < count; e++) {
      if (seen[indices[e]] === 1) continue;
      const row = indices[e] * k;
      for (let c = 0; c < k; c++) unseenSums[row + c] += values[e] * u[c];
    }
  }
  for (let t = 0; t < idf.length; t++) {
    if (seen[t] === 1) continue;
    for (let c = 0; c < k; c++) v[t * k + c] = unseenSums[t * k + c] * inverse[c];
  }
}

/** The L2-normalised log-TF × IDF rows of the given documents, as a sparse matrix. */
function weightedRows(
  bags: readonly Uint32Array[],
  documents: Int32Array,
  modelIndexOf: Int32Array,
  idf: Float64Array,
): SparseMatrix {
  const weigher = new TermWeigher(idf);
  const rowStart = new Int32Array(documents.length + 1);
  let capacity = 0;
  for (const d of documents) capacity += bags[d].length / 2;
  let columnIndex = new Int32Array(capacity);
  let values = new Float64Array(capacity);
  let stored = 0;
  documents.forEach((d, i) => {
    const count = weigher.weighBag(bags[d], modelIndexOf);
    columnIndex.set(weigher.indices.subarray(0, count), stored);
    values.set(weigher.values.subarray(0, count), stored);
    stored += count;
    rowStart[i + 1] = stored;
  });
  if (stored < capacity) {
    columnIndex = columnIndex.slice(0, stored);
    values = values.slice(0, stored);
  }
  return { rows: documents.length, cols: idf.length, rowStart, columnIndex, values };
}

/**
 * `V Σ^-1/2`: a fitted document lands on its row of `U Σ^1/2`, halfway between plain LSA
 * (`U Σ`, dominated by the first components) and the whitened fold-in (`U`, where documents of
 * a corpus no larger than the dimension count become mutually orthogonal, losing their
 * document-to-document similarity). SciFact train nDCG@10 at 256 dimensions, seeds 42 and 7:
 * `V` 0.539-0.544, `V Σ^-1/2` 0.558-0.565, `V Σ⁻¹` 0.562-0.571; on 200-1,000-document subsets
 * the three are within half a point of each other.
 */
function foldInProjection(rightVectors: Float64Array, singularValues: Float64Array): Float32Array {
  const k = singularValues.length;
  const out = new Float32Array(rightVectors.length);
  for (let i = 0; i < out.length; i++) {
    const sigma = singularValues[i % k];
    out[i] = sigma > 0 ? rightVectors[i] / Math.sqrt(sigma) : 0;
  }
  return out;
}

/** The default embedder's length once the corpus has 768 chunks or more; below, it follows the corpus size. */
export const MAX_DEFAULT_DIMENSIONS = 256;

/** 256 components, but at most a third of the documents and at least 8. */
export function defaultDimensions(documentCount: number): number {
  return Math.min(MAX_DEFAULT_DIMENSIONS, Math.max(8, Math.floor(documentCount / 3)));
}

function checkInteger(name: string, value: number, min?: number): number {
  if (!Number.isSafeInteger(value) || (min !== undefined && value < min)) {
    const bound = min === undefined ? "" : ` >= ${min}`;
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option lsa.${name} must be an integer${bound}, got ${String(value)}.`,
    );
  }
  return value;
}
