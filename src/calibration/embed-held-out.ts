import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { checkedVector } from "../l1/check-vector.js";
import { withDeadline } from "../l1/deadline.js";

const invalid = (detail: string) => new LookupKnowledgeError("EMBEDDINGS_INVALID", `embedDocuments returned ${detail} for a calibration batch.`);

/**
 * The checked vectors of one `embedDocuments` call, within the deadline a build gives a batch:
 * one vector of `dimensions` finite numbers per text, read once each, as a build checks them.
 * @throws LookupKnowledgeError `EMBEDDINGS_TIMEOUT`, `EMBEDDINGS_FAILED` or `EMBEDDINGS_INVALID`.
 */
export async function embedCheckedBatch(model: EmbeddingsInterface, texts: string[], dimensions: number, timeoutMs: number): Promise<number[][]> {
  let raw: unknown;
  try {
    raw = await withDeadline(() => model.embedDocuments(texts), {
      timeoutMs,
      onTimeout: () => new LookupKnowledgeError("EMBEDDINGS_TIMEOUT", `embedDocuments did not answer a calibration batch within ${timeoutMs} ms; raise embedTimeoutMs if the service is this slow.`),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("EMBEDDINGS_FAILED", `embedDocuments failed on a calibration batch: ${errorDetail(error)}`, { cause: error });
  }
  try {
    if (!Array.isArray(raw)) throw invalid("no list of vectors");
    if (raw.length !== texts.length) throw invalid(`${raw.length} vectors for ${texts.length} texts`);
    return raw.map((row: unknown, i) => {
      const vector = checkedVector(row, dimensions);
      if (typeof vector === "string") throw invalid(`a vector that ${vector} (text ${i + 1})`);
      return vector;
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw invalid(`a list that cannot be read (${errorDetail(error)})`);
  }
}

/** Held-out texts embedded in batches of `batchSize`, every vector checked. */
export async function embedHeldOutTexts(model: EmbeddingsInterface, texts: readonly string[], options: { dimensions: number; batchSize: number; timeoutMs: number }): Promise<number[][]> {
  const out: number[][] = [];
  for (let at = 0; at < texts.length; at += options.batchSize) {
    out.push(...(await embedCheckedBatch(model, texts.slice(at, at + options.batchSize), options.dimensions, options.timeoutMs)));
  }
  return out;
}
