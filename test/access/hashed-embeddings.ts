import { Embeddings } from "@langchain/core/embeddings";

/** Message of the query failure {@link HashedWordEmbeddings} throws once `failQueries` is set. */
export const QUERY_EMBEDDING_FAILURE = "the embedding service is down (simulated)";

/** FNV-1a of a word: where it lands in the vector. */
function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Deterministic, corpus-independent embeddings: each word hashed into one of `dimensions`
 * signed buckets, the vector normalised. Texts that share words are near, so L1 really finds a
 * hidden file for a query made of its words: what a leak needs. Queries throw once
 * `failQueries` is set: an embedding service that indexed fine and then went down.
 */
export class HashedWordEmbeddings extends Embeddings {
  failQueries = false;
  readonly dimensions: number;

  constructor(dimensions = 128) {
    super({});
    this.dimensions = dimensions;
  }

  vectorOf(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    // A constant component keeps every vector non-zero, whatever the text.
    vector[0] = 0.05;
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const hash = fnv1a(word);
      vector[1 + (hash % (this.dimensions - 1))] += hash & 0x80000000 ? -1 : 1;
    }
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.vectorOf(text));
  }

  override async embedQuery(text: string): Promise<number[]> {
    if (this.failQueries) throw new Error(QUERY_EMBEDDING_FAILURE);
    return this.vectorOf(text);
  }
}
