import { Embeddings } from "@langchain/core/embeddings";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { BuildProgress } from "../../src/knowledge-base/build-options.js";
import { embedChunks, startDenseBuild } from "../../src/knowledge-base/embed-chunks.js";
import { embedTexts } from "../../src/l1/embeddings/embed-batches.js";
import { LsaEmbeddings } from "../../src/l1/embeddings/lsa-embeddings.js";
import { termBagsOf } from "../../src/text/term-bags.js";
import * as tokenizeModule from "../../src/text/tokenize.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

vi.mock("../../src/text/tokenize.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/text/tokenize.js")>();
  return { ...original, tokenize: vi.fn(original.tokenize) };
});

const TEXTS = [
  "Refund policy: customers can request a refund within 30 days of purchase.",
  "Billing disputes and chargebacks: open a billing ticket before asking for a refund.",
  "Deploying to Kubernetes: build the container image and apply the deployment manifest.",
  "Rolling back a Kubernetes deployment: kubectl rollout undo restores the previous replica set.",
  "Vacation policy: employees accrue paid time off every month.",
  "Parental leave: employees receive sixteen weeks of paid leave after the birth of a child.",
];
const CHUNKS = TEXTS.map((content, i) =>
  makeChunk(`doc-${i}.md#s`, { content, meta: { domain: i < 2 ? "billing" : i < 4 ? "ops" : "hr" } }),
);

/** Embeddings that record each batch and return a vector per text from its length and first letters. */
class RecordingEmbeddings extends Embeddings {
  readonly batches: number[] = [];
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.batches.push(texts.length);
    return texts.map((text) => this.#vector(text));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.#vector(text);
  }
  #vector(text: string): number[] {
    return [text.length, text.charCodeAt(0), text.charCodeAt(1), 1];
  }
}

const tokenize = vi.mocked(tokenizeModule.tokenize);
beforeEach(() => {
  tokenize.mockClear();
});

describe("embedChunks with the statistical default", () => {
  it("fits and embeds from the term bags it is given, without tokenizing again", async () => {
    const bags = termBagsOf(TEXTS);
    tokenize.mockClear();
    const { embeddings, vectorIndex, embedder } = await embedChunks(CHUNKS, TEXTS, {}, bags);
    expect(tokenize).not.toHaveBeenCalled();
    expect(embeddings).toBeInstanceOf(LsaEmbeddings);
    expect(embedder).toEqual({ kind: "statistical-lsa", dimensions: (embeddings as LsaEmbeddings).dimensions });
    expect(vectorIndex?.size).toBe(TEXTS.length);
  });

  it("builds the same model and graph with bags as without them, tokenizing each text once then", async () => {
    const withBags = await embedChunks(CHUNKS, TEXTS, {}, termBagsOf(TEXTS));
    tokenize.mockClear();
    const without = await embedChunks(CHUNKS, TEXTS, {});
    expect(tokenize).toHaveBeenCalledTimes(TEXTS.length);
    const a = (withBags.embeddings as LsaEmbeddings).serialize();
    const b = (without.embeddings as LsaEmbeddings).serialize();
    expect(a.projection.equals(b.projection)).toBe(true);
    const query = await without.embeddings!.embedQuery("kubectl rollout undo");
    expect(withBags.vectorIndex?.search(query, 3)).toEqual(without.vectorIndex?.search(query, 3));
    expect(without.vectorIndex?.search(query, 1)[0]?.id).toBe(3);
    expect(without.vectorIndex?.search(query, 2, "hr").every((hit) => CHUNKS[hit.id].meta.domain === "hr")).toBe(true);
  });

  it("reports fit, embed and vectors progress", async () => {
    const events: BuildProgress[] = [];
    await embedChunks(CHUNKS, TEXTS, { onProgress: (event) => events.push(event) }, termBagsOf(TEXTS));
    expect(events.map((event) => event.phase)).toEqual(["fit", "fit", "embed", "vectors", "vectors"]);
    expect(events.at(-1)).toEqual({ phase: "vectors", done: TEXTS.length, total: TEXTS.length });
  });

  it("rejects bags of another number of chunks", async () => {
    await expect(embedChunks(CHUNKS, TEXTS, {}, termBagsOf(TEXTS.slice(1)))).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
  });

  it("gives an empty corpus a model but no graph, and no L1 at all with embeddings null", async () => {
    const empty = await embedChunks([], [], {}, termBagsOf([]));
    expect(empty.embeddings).toBeInstanceOf(LsaEmbeddings);
    expect(empty.vectorIndex).toBeNull();
    expect(await embedChunks(CHUNKS, TEXTS, { embeddings: null })).toEqual({
      embeddings: null,
      vectorIndex: null,
      embedder: { kind: "none", dimensions: null },
    });
  });

  it("hands back the embeddings before the graph is finished, with the graph as a promise", async () => {
    const started = await startDenseBuild(CHUNKS, TEXTS, {}, termBagsOf(TEXTS));
    expect(started.vectorIndex).toBeInstanceOf(Promise);
    expect((await started.vectorIndex)?.size).toBe(TEXTS.length);
  });
});

describe("embedChunks with custom embeddings", () => {
  it("passes the texts to embedDocuments in batches and ignores the bags", async () => {
    const embeddings = new RecordingEmbeddings();
    const { vectorIndex, embedder } = await embedChunks(
      CHUNKS,
      TEXTS,
      { embeddings, embedBatchSize: 4 },
      termBagsOf(TEXTS),
    );
    expect(embeddings.batches).toEqual([4, 2]);
    expect(embedder).toEqual({ kind: "custom", name: "RecordingEmbeddings", dimensions: 4 });
    expect(vectorIndex?.size).toBe(TEXTS.length);
  });

  it("fails naming the batch when a vector is malformed, building nothing", async () => {
    class Broken extends RecordingEmbeddings {
      override async embedDocuments(texts: string[]): Promise<number[][]> {
        const vectors = await super.embedDocuments(texts);
        if (this.batches.length === 2) vectors[1] = [0, 0, 0, 0];
        return vectors;
      }
    }
    await expect(embedChunks(CHUNKS, TEXTS, { embeddings: new Broken(), embedBatchSize: 2 })).rejects.toMatchObject({
      code: "EMBEDDINGS_INVALID",
      message: expect.stringMatching(/vector 2 of batch 2 \(chunks 3-4.*is all zeros/),
    });
  });
});

describe("embedTexts", () => {
  it("embeds texts in checked batches into one row-major Float32Array", async () => {
    const embeddings = new RecordingEmbeddings();
    const rows = await embedTexts(embeddings, TEXTS.slice(0, 3), CHUNKS.slice(0, 3), { embedBatchSize: 2 }, 4);
    expect(embeddings.batches).toEqual([2, 1]);
    expect(Array.from(rows.subarray(8, 12))).toEqual([
      TEXTS[2].length,
      TEXTS[2].charCodeAt(0),
      TEXTS[2].charCodeAt(1),
      1,
    ]);
    expect(await embedTexts(embeddings, [], [], {}, 4)).toHaveLength(0);
  });

  it("requires the index's dimensions of every vector", async () => {
    await expect(
      embedTexts(new RecordingEmbeddings(), TEXTS.slice(0, 1), CHUNKS.slice(0, 1), {}, 3),
    ).rejects.toMatchObject({ code: "EMBEDDINGS_INVALID" });
  });
});
