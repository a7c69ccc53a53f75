import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Bm25Stats } from "../l0/bm25.js";
import type { KeywordIndex } from "../l0/keyword-index.js";
import type { VectorIndex } from "../l1/vector-index.js";
import type { Chunk, SkippedFile } from "../types.js";
import type { IndexSettings } from "./manifest.js";

/** Everything a knowledge base is made of: what a save writes and a load restores. */
export interface IndexParts {
  chunks: Chunk[];
  skipped: SkippedFile[];
  fileCount: number;
  keywordIndex: KeywordIndex;
  bm25: Bm25Stats;
  embeddings: EmbeddingsInterface | null;
  vectorIndex: VectorIndex | null;
  settings: IndexSettings;
}
