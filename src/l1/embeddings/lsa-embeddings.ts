import { Embeddings } from "@langchain/core/embeddings";
import { axpyRows } from "./linear-algebra.js";
import { LookupKnowledgeError } from "../../errors.js";
import type { TermBags } from "../../text/term-bags.js";
import { tokenize } from "../../text/tokenize.js";
import { TermWeigher } from "./bag-weights.js";
import { fitLsaModel, fitLsaModelFromBags } from "./lsa-fit.js";
import { decodeFloat32, encodeFloat32, validateLsaModelHeader, type LsaModelHeader } from "./lsa-model-header.js";
import { inverseDocumentFrequency } from "./term-weights.js";
import type { LsaEmbeddingsOptions } from "./lsa-options.js";

export type { LsaEmbeddingsOptions } from "./lsa-options.js";

/** Below this projected length a text is treated as having no known terms. */
const NEGLIGIBLE_PROJECTION = 1e-9;

function outsideVocabulary(id: number, size: number): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "INVALID_OPTION",
    `a term bag refers to term id ${id}, but its vocabulary has ${size} terms; pass the terms of the TermBags the bag came from.`,
  );
}

/** Bag term id → model index for one bag vocabulary, extended as that vocabulary grows. */
interface BagVocabularyMap {
  terms: readonly string[];
  modelIndexOf: Int32Array;
  /** Ids below this are mapped. */
  mapped: number;
}

/** Set by the class: makes a model of a checked header and a projection it takes ownership of. */
let adopt: (header: LsaModelHeader, bytes: Buffer) => LsaEmbeddings;

/**
 * Restores a model from a saved index's own header and projection without copying them, as
 * {@link LsaEmbeddings.deserialize} does: the caller hands both over and never changes them (a
 * load's freshly read, checked file). The model's encoding is those very bytes, so a save can
 * link the file they were read from.
 * @throws LookupKnowledgeError `INDEX_CORRUPT`, as {@link LsaEmbeddings.deserialize}.
 */
export function adoptLsaModel(header: LsaModelHeader, projection: Buffer): LsaEmbeddings {
  return adopt(validateLsaModelHeader(header, projection.byteLength), projection);
}

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
  #encodedProjection: Buffer | undefined;
  readonly #components: number;
  readonly #termIndex: Map<string, number>;
  readonly #weigher: TermWeigher;
  /** Accumulator of one projection, reused by every call (embedding is synchronous). */
  readonly #accumulator: Float64Array;
  #bagMap: BagVocabularyMap | null = null;

  private constructor(header: LsaModelHeader, projection: Float32Array) {
    super({});
    this.#header = header;
    this.#projection = projection;
    this.#components = header.dimensions - 1;
    this.#termIndex = new Map(header.terms.map((term, i) => [term, i]));
    this.#weigher = new TermWeigher(
      Float64Array.from(header.documentFrequencies, (df) => inverseDocumentFrequency(df, header.documentCount)),
    );
    this.#accumulator = new Float64Array(this.#components);
  }

  /**
   * Fits a model on the corpus: same texts and options give a bit-identical model.
   * @throws LookupKnowledgeError `INVALID_OPTION` when an option is not an integer in range (seed: any integer; powerIterations: 0 or more; others: 1 or more).
   */
  static fit(texts: readonly string[], options: LsaEmbeddingsOptions = {}): LsaEmbeddings {
    const { header, projection } = fitLsaModel(texts, options);
    return new LsaEmbeddings(header, projection);
  }

  /**
   * {@link LsaEmbeddings.fit} on texts tokenized once into term bags (`termBagsOf(texts)`): the
   * same model, bit for bit, as fitting the texts themselves, without tokenizing them again.
   * @throws LookupKnowledgeError `INVALID_OPTION` as {@link LsaEmbeddings.fit}.
   */
  static fitBags(bags: TermBags, options: LsaEmbeddingsOptions = {}): LsaEmbeddings {
    const { header, projection } = fitLsaModelFromBags(bags, options);
    return new LsaEmbeddings(header, projection);
  }

  /** Length of every vector this model returns. */
  get dimensions(): number {
    return this.#header.dimensions;
  }

  /** Documents of the corpus the model was fitted on, and how many of them the SVD saw. */
  get fittedOn(): { documents: number; svdDocuments: number } {
    const documents = this.#header.documentCount;
    return { documents, svdDocuments: this.#header.svdDocumentCount ?? documents };
  }

  /** Embeds one text synchronously (the index builder's path); the result has unit length. */
  embedSync(text: string): number[] {
    const out = new Array<number>(this.#header.dimensions);
    this.#write(this.#weigher.weighTokens(tokenize(text), this.#termIndex), out, 0);
    return out;
  }

  /**
   * Embeds the text a bag came from, identically to {@link LsaEmbeddings.embedSync} on that text.
   * @param bag `[termId, count, ...]` as `termBagsOf` gives it.
   * @param terms The vocabulary the bag's ids index (`TermBags.terms`); it may grow between calls.
   */
  embedBag(bag: Uint32Array, terms: readonly string[]): number[] {
    const out = new Array<number>(this.#header.dimensions);
    this.#write(this.#weighBag(bag, terms), out, 0);
    return out;
  }

  /**
   * {@link LsaEmbeddings.embedBag} written into `out` from `offset` (as 32-bit floats, which is
   * what the vector index stores), allocating nothing.
   */
  embedBagInto(bag: Uint32Array, terms: readonly string[], out: Float32Array, offset: number): void {
    this.#write(this.#weighBag(bag, terms), out, offset);
  }

  /**
   * Share of the tokens of `bags` (counted with multiplicity) whose term this model does not
   * know, from 0 to 1; 0 for bags without tokens. The `unknownTermShare` of `lsaRefitNeeded`.
   */
  unknownTokenShare(bags: Pick<TermBags, "terms" | "bags">): number {
    const known = Uint8Array.from(bags.terms, (term) => (this.#termIndex.has(term) ? 1 : 0));
    let total = 0;
    let unknown = 0;
    for (const bag of bags.bags) {
      for (let p = 0; p < bag.length; p += 2) {
        if (bag[p] >= known.length) throw outsideVocabulary(bag[p], known.length);
        total += bag[p + 1];
        if (known[bag[p]] === 0) unknown += bag[p + 1];
      }
    }
    return total === 0 ? 0 : unknown / total;
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
    // The model never changes: every save of an index (an incremental one too) reuses one encoding.
    this.#encodedProjection ??= encodeFloat32(this.#projection);
    return { header: structuredClone(this.#header), projection: this.#encodedProjection };
  }

  /**
   * Restores a model from {@link LsaEmbeddings.serialize} output; it embeds bit-identically.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` naming the problem when the header is malformed or of another version, or the buffer length does not match it.
   */
  static deserialize(header: LsaModelHeader, projection: Buffer): LsaEmbeddings {
    const valid = validateLsaModelHeader(header, projection.byteLength);
    // One copy of each, owned by the model: its projection may be a view of it (see decodeFloat32).
    return adopt(structuredClone(valid), Buffer.from(projection));
  }

  static {
    adopt = (header, bytes) => {
      const model = new LsaEmbeddings(header, decodeFloat32(bytes));
      model.#encodedProjection = bytes;
      return model;
    };
  }

  #weighBag(bag: Uint32Array, terms: readonly string[]): number {
    return this.#weigher.weighBag(bag, this.#modelIndexOf(bag, terms));
  }

  /** The model index of every term id of `terms` that `bag` uses, mapping new ids as the vocabulary grows. */
  #modelIndexOf(bag: Uint32Array, terms: readonly string[]): Int32Array {
    let map = this.#bagMap;
    if (map === null || map.terms !== terms)
      map = this.#bagMap = { terms, modelIndexOf: new Int32Array(terms.length), mapped: 0 };
    let highest = -1;
    for (let p = 0; p < bag.length; p += 2) if (bag[p] > highest) highest = bag[p];
    if (highest >= terms.length) throw outsideVocabulary(highest, terms.length);
    if (highest >= map.mapped) {
      if (terms.length > map.modelIndexOf.length) {
        const grown = new Int32Array(Math.max(terms.length, 2 * map.modelIndexOf.length));
        grown.set(map.modelIndexOf.subarray(0, map.mapped));
        map.modelIndexOf = grown;
      }
      for (let id = map.mapped; id < terms.length; id++) map.modelIndexOf[id] = this.#termIndex.get(terms[id]) ?? -1;
      map.mapped = terms.length;
    }
    return map.modelIndexOf;
  }

  /**
   * Projects the weighed text (the weigher's first `count` entries) and writes the unit-length
   * result at `out[offset ..]`. Each component adds its terms in ascending term order, eight at a
   * time but rounded exactly as one addition after another.
   */
  #write(count: number, out: number[] | Float32Array, offset: number): void {
    const k = this.#components;
    const acc = this.#accumulator;
    acc.fill(0);
    const indices = this.#weigher.indices;
    const weights = this.#weigher.values;
    axpyRows(weights, indices, 0, count, this.#projection, k, acc, 0, k);
    let sum = 0;
    for (let c = 0; c < k; c++) sum += acc[c] * acc[c];
    const length = Math.sqrt(sum);
    const unknown = length <= NEGLIGIBLE_PROJECTION;
    for (let c = 0; c < k; c++) out[offset + c] = unknown ? 0 : acc[c] / length;
    out[offset + k] = unknown ? 1 : 0;
  }
}
