/** Options of `LsaEmbeddings.fit` (the statistical default embedder). */
export interface LsaEmbeddingsOptions {
  /**
   * Target length of the output vectors; capped by what the corpus supports (one axis per
   * LSA component, at most min(documents, vocabulary) of them, plus the reserved
   * unknown-text axis), at least 1.
   * @default 256, but at most a third of the documents (and at least 8): LSA generalises only
   * with far fewer components than documents, so a small corpus gets fewer dimensions
   */
  dimensions?: number;
  /** Seed of the randomized SVD and of the fit sample. @default 42 */
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
  /**
   * Most documents the SVD is fitted on. A larger corpus is fitted on an evenly spread, seeded
   * sample of this many documents (one drawn from each of this many equal consecutive stretches
   * of the corpus); the vocabulary and the IDF still come from the whole corpus, a term the sample
   * lacks gets its projection row from the documents holding it, and every document is folded in
   * through the projection like a query. Fitting time grows about linearly with this number
   * (roughly 10 s per 20,000 documents at 256 dimensions on one core); a sample loses some
   * quality (SciFact test nDCG@10 of L1 alone: 0.63 fitted on all 5,183 documents, 0.60 on a
   * 2,500 sample). A corpus of at most this many documents is fitted on all of them, bit for bit
   * as before the option existed.
   * @default 20000
   */
  maxFitDocuments?: number;
}
