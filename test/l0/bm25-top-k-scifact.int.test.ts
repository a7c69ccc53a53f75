import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadBeirCorpus } from "../../src/eval/beir/load-corpus.js";
import { loadBeirQueries } from "../../src/eval/beir/load-queries.js";
import { beirDocumentToChunk } from "../../src/eval/beir/to-chunks.js";
import { chunkSearchText } from "../../src/corpus/chunk-text.js";
import { Bm25Stats } from "../../src/l0/bm25.js";
import { termBagsOf } from "../../src/text/term-bags.js";
import { tokenize } from "../../src/text/tokenize.js";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/** The BEIR SciFact folder: `LOOKUP_KNOWLEDGE_SCIFACT`, or the shared datasets beside the repository. */
const DATASET = process.env.LOOKUP_KNOWLEDGE_SCIFACT ?? resolve(REPO, "../shared/datasets/scifact");
const HAVE_DATASET = existsSync(join(DATASET, "corpus.jsonl")) && existsSync(join(DATASET, "train", "queries.jsonl"));

describe.skipIf(!HAVE_DATASET)("pruned BM25 top-k on SciFact", () => {
  it("ranks every train claim exactly as exhaustive BM25 does, scores included, at k 10 and 100", async () => {
    const chunks = (await loadBeirCorpus(join(DATASET, "corpus.jsonl"))).map(beirDocumentToChunk);
    const stats = Bm25Stats.fromBags(termBagsOf(chunks.map(chunkSearchText)));
    const queries = await loadBeirQueries(join(DATASET, "train", "queries.jsonl"));
    expect(queries.length).toBeGreaterThan(800);
    let compared = 0;
    for (const { text } of queries) {
      const terms = tokenize(text);
      const all = [...stats.score(terms)]
        .map(([id, score]) => ({ id, score }))
        .sort((a, b) => b.score - a.score || a.id - b.id);
      for (const k of [10, 100]) {
        expect(stats.topK(terms, k), text).toEqual(all.slice(0, k));
        compared++;
      }
    }
    expect(compared).toBe(queries.length * 2);
  }, 120_000);
});
