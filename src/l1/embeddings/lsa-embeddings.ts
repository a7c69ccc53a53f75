import { Embeddings } from "@langchain/core/embeddings";
import { tokenize } from "../../text/tokenize.js";
import { fitLsaModel } from "./lsa-fit.js";
import { decodeFloat32, encodeFloat32, validateLsaModelHeader, type LsaModelHeader } from "./lsa-model-header.js";
import { inverseDocumentFrequency, weighTerms } from "./term-weights.js";

/** Options of {@link LsaEmbeddings.fit}. */
export interface LsaEmbeddingsOptions {
  /**
   * Target length of the output vectors; capped by what the corpus supports (one axis per
   * LSA component, at most min(documents, vocabulary) of them, plus the reserved
   * unknown-text axis), at least 1.
   * @default 256, but at most a third of the documents (and at least 8): LSA generalises only
   * with far fewer components than documents, so a small corpus gets fewer dimensions
   */
  dimensions?: number;
  /** Seed of the randomized SVD. @default 42 */
  seed?: number;
  /**
   * Power iterations of the randomized range finder. More iterations give a more exact SVD,
   * which measured worse for retrieval (SciFact train nDCG@10 alone: 0.617 with 0, 0.565 with 2).
   * @default 0
   */
  powerIterations?: number;
  /** Terms seen in fewer documents are dropped from the vocabulary. @default 1 */
  minDocumentFrequency?: number;
  /** Cap on vocabulary size (most frequent by document frequency kept; ties by term). @default 100000 */
  maxVocabulary?: number;
}

/** Below this projected length a text is treated as having no known terms. */
const NEGLIGIBLE_PROJECTION = 1e-9;

/**
 * The offline default embedder: latent semantic analysis fitted on the corpus at index time.
 * Documents become L2-normalised log-TF × IDF vectors, a seeded randomized truncated SVD finds
 * the leading term directions, and every text (document or query) is folded in through the same
 * projection (`x ↦ xᵀ V Σ^-1/2`) and L2-normalised. Fitting is synchronous and deterministic.
 *
 * The last axis is reserved: text with no known terms (or whose terms project to nothing)
 * embeds as the unit vector along it, and every other text has 0 there, so such a text has
 * cosine similarity exactly 0 to every document. When the model has only one dimension
 * (an empty vocabulary, or `dimensions: 1`) every text embeds as `[1]`.
 * @example
 * const embeddings = LsaEmbeddings.fit(chunks.map((c) => c.text), { dimensions: 256 });
 * const vector = await embeddings.embedQuery("how do I get a refund?");
 */
export class LsaEmbeddings extends Embeddings {
  /** A stable kind name recorded in manifests. */
  readonly id = "lsa" as const;
  readonly #header: LsaModelHeader;
  readonly #projection: Float32Array;
  readonly #components: number;
  readonly #termIndex: Map<string, number>;
  readonly #idf: Float64Array;

  private constructor(header: LsaModelHeader, projection: Float32Array) {
    super({});
    this.#header = header;
    this.#projection = projection;
    this.#components = header.dimensions - 1;
    this.#termIndex = new Map(header.terms.map((term, i) => [term, i]));
    this.#idf = Float64Array.from(header.documentFrequencies, (df) => inverseDocumentFrequency(df, header.documentCount));
  }

  /**
   * Fits a model on the corpus: same texts and options give a bit-identical model.
   * @throws LookupKnowledgeError `INVALID_OPTION` when an option is not an integer in range (seed: any integer; powerIterations: 0 or more; others: 1 or more).
   */
  static fit(texts: readonly string[], options: LsaEmbeddingsOptions = {}): LsaEmbeddings {
    const { header, projection } = fitLsaModel(texts, options);
    return new LsaEmbeddings(header, projection);
  }

  /** Length of every vector this model returns. */
  get dimensions(): number {
    return this.#header.dimensions;
  }

  /** Embeds one text synchronously (the index builder's path); the result has unit length. */
  embedSync(text: string): number[] {
    const k = this.#components;
    const out = new Array<number>(k + 1).fill(0);
    const weights = weighTerms(tokenize(text), this.#termIndex, this.#idf);
    const acc = new Float64Array(k);
    for (let e = 0; e < weights.indices.length; e++) {
      const w = weights.values[e];
      const row = weights.indices[e] * k;
      for (let c = 0; c < k; c++) acc[c] += w * this.#projection[row + c];
    }
    let sum = 0;
    for (let c = 0; c < k; c++) sum += acc[c] * acc[c];
    const length = Math.sqrt(sum);
    if (length <= NEGLIGIBLE_PROJECTION) {
      out[k] = 1;
      return out;
    }
    for (let c = 0; c < k; c++) out[c] = acc[c] / length;
    return out;
  }

  /** Embeds documents; identical to {@link LsaEmbeddings.embedSync} on each text. */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedSync(text));
  }

  /** Embeds a query through the same projection as documents. */
  async embedQuery(text: string): Promise<number[]> {
    return this.embedSync(text);
  }

  /** Serialised model: a small JSON header and one binary Float32 buffer for the projection. */
  serialize(): { header: LsaModelHeader; projection: Buffer } {
    return { header: structuredClone(this.#header), projection: encodeFloat32(this.#projection) };
  }

  /**
   * Restores a model from {@link LsaEmbeddings.serialize} output; it embeds bit-identically.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` naming the problem when the header is malformed or of another version, or the buffer length does not match it.
   */
  static deserialize(header: LsaModelHeader, projection: Buffer): LsaEmbeddings {
    const valid = validateLsaModelHeader(header, projection.byteLength);
    return new LsaEmbeddings(structuredClone(valid), decodeFloat32(projection));
  }
}
