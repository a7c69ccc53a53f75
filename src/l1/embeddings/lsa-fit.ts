import { LookupKnowledgeError } from "../../errors.js";
import { tokenize } from "../../text/tokenize.js";
import type { LsaEmbeddingsOptions } from "./lsa-embeddings.js";
import { LSA_MODEL_VERSION, type LsaModelHeader } from "./lsa-model-header.js";
import { randomizedSvd } from "./randomized-svd.js";
import { sparseFromRows } from "./sparse-matrix.js";
import { buildVocabulary, inverseDocumentFrequency, weighTerms } from "./term-weights.js";

/** A fitted LSA model in its serialisable form. */
export interface FittedLsaModel {
  /** Everything but the projection. */
  header: LsaModelHeader;
  /** Term-major `terms × (dimensions - 1)` projection `V Σ^-1/2`. */
  projection: Float32Array;
}

/**
 * Fits LSA on a corpus: vocabulary, log-TF × IDF document rows (L2-normalised), randomized
 * truncated SVD, fold-in projection. Pure and deterministic: same texts and options give a
 * bit-identical result. Output length is `min(dimensions, min(documents, vocabulary) + 1)`,
 * at least 1: one axis per component the corpus supports plus the reserved unknown-text axis.
 * @throws Error when an option is out of range.
 */
export function fitLsaModel(texts: readonly string[], options: LsaEmbeddingsOptions): FittedLsaModel {
  const fitOptions = {
    dimensions: checkInteger("dimensions", options.dimensions ?? defaultDimensions(texts.length), 1),
    seed: checkInteger("seed", options.seed ?? 42),
    powerIterations: checkInteger("powerIterations", options.powerIterations ?? 0, 0),
    minDocumentFrequency: checkInteger("minDocumentFrequency", options.minDocumentFrequency ?? 1, 1),
    maxVocabulary: checkInteger("maxVocabulary", options.maxVocabulary ?? 100_000, 1),
  };
  const tokenLists = texts.map((text) => tokenize(text));
  const { terms, documentFrequencies } = buildVocabulary(tokenLists, fitOptions);
  const termIndex = new Map(terms.map((term, i) => [term, i]));
  const idf = Float64Array.from(documentFrequencies, (df) => inverseDocumentFrequency(df, texts.length));
  const matrix = sparseFromRows(tokenLists.map((tokens) => weighTerms(tokens, termIndex, idf)), terms.length);
  const dimensions = Math.max(1, Math.min(fitOptions.dimensions, Math.min(texts.length, terms.length) + 1));
  const svd = randomizedSvd(matrix, { components: dimensions - 1, seed: fitOptions.seed, powerIterations: fitOptions.powerIterations });
  const header: LsaModelHeader = {
    kind: "lsa",
    version: LSA_MODEL_VERSION,
    dimensions,
    documentCount: texts.length,
    terms,
    documentFrequencies,
    singularValues: Array.from(svd.singularValues),
    fitOptions,
  };
  return { header, projection: foldInProjection(svd.rightVectors, svd.singularValues) };
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

/** 256 components, but at most a third of the documents and at least 8. */
export function defaultDimensions(documentCount: number): number {
  return Math.min(256, Math.max(8, Math.floor(documentCount / 3)));
}

function checkInteger(name: string, value: number, min?: number): number {
  if (!Number.isSafeInteger(value) || (min !== undefined && value < min)) {
    const bound = min === undefined ? "" : ` >= ${min}`;
    throw new LookupKnowledgeError("INVALID_OPTION", `option lsa.${name} must be an integer${bound}, got ${String(value)}.`);
  }
  return value;
}
