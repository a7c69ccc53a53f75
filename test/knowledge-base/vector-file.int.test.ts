import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { crc32Hex, sha256 } from "../../src/knowledge-base/manifest.js";
import { encodeLabelFile, loadVerifiedVectors, writeVectorFile } from "../../src/knowledge-base/vector-file.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { VectorIndex } from "../../src/l1/vector-index.js";
import { decodeVectorLabels, encodeVectorLabels } from "../../src/l1/vector-labels.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";

const D = 8;
const N = 30;
const random = mulberry32(5);
const vectors = Float32Array.from({ length: N * D }, () => random() - 0.5);
const domains = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? "even" : "odd"));
const row = (i: number) => Array.from(vectors.subarray(i * D, (i + 1) * D));
const temp = createTempDirs("lookup-knowledge-vector-file-");
afterAll(() => temp.cleanup());

/** Chunks 0-4 removed, the rest shifted down by 5, and chunk 25 new with old chunk 2's vector, in domain "new". */
async function updatedIndex(): Promise<{ index: VectorIndex; domains: (string | undefined)[] }> {
  const built = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
  const renumber = Int32Array.from({ length: N }, (_, i) => (i < 5 ? -1 : i - 5));
  const next = [...domains.slice(5), "new"];
  const index = await built.update({
    renumber,
    add: { vectors: vectors.slice(2 * D, 3 * D), chunkIds: [25] },
    domains: next,
  });
  return { index, domains: next };
}

/** The vector file of an older index: hnswlib's file with the label map appended. */
async function savedBytes(index: VectorIndex, _chunkDomains: readonly (string | undefined)[]): Promise<Buffer> {
  const path = join(await temp.make(), "vectors.hnsw");
  const sums = await writeVectorFile(index, path);
  const graph = await readFile(path);
  expect(sums).toEqual({ sha256: sha256(graph), crc32: crc32Hex(graph) });
  return Buffer.concat([graph, encodeLabelFile(index)]);
}

async function loadError(
  bytes: Uint8Array,
  chunkDomains: readonly (string | undefined)[],
): Promise<LookupKnowledgeError> {
  const error = await loadVerifiedVectors(await temp.make(), bytes, D, chunkDomains, {}).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LookupKnowledgeError);
  return error as LookupKnowledgeError;
}

/** `bytes` with its label map replaced by `labels`. */
function withLabels(bytes: Buffer, labels: Int32Array): Buffer {
  const { graph } = decodeVectorLabels(bytes);
  return Buffer.concat([graph, encodeVectorLabels(labels)]);
}

describe("vector file round trip", () => {
  it("keeps deletions, the new numbering and the domains of an updated index", async () => {
    const { index, domains: next } = await updatedIndex();
    const loaded = await loadVerifiedVectors(await temp.make(), await savedBytes(index, next), D, next, {});
    expect(loaded.size).toBe(26);
    expect(loaded.deletedCount).toBe(5);
    expect(Array.from(loaded.labelMap())).toEqual(Array.from(index.labelMap()));
    const returned = new Set(
      Array.from({ length: N }, (_, i) => loaded.search(row(i), 26).map((hit) => hit.id)).flat(),
    );
    expect([...returned].sort((a, b) => a - b)).toEqual(Array.from({ length: 26 }, (_, j) => j));
    expect(loaded.search(row(12), 1)[0]?.id).toBe(7);
    expect(loaded.search(row(2), 1)[0]?.id).toBe(25);
    expect(loaded.search(row(2), 5, "new").map((hit) => hit.id)).toEqual([25]);
    for (const hit of loaded.search(row(9), 10, "odd")) expect(next[hit.id]).toBe("odd");
  });

  it("loads a graph written before label maps existed with label i as chunk i", async () => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    const path = join(await temp.make(), "legacy.hnsw");
    await index.save(path);
    const loaded = await loadVerifiedVectors(await temp.make(), await readFile(path), D, domains, {});
    expect(loaded.size).toBe(N);
    expect(loaded.search(row(17), 1)[0]?.id).toBe(17);
  });

  it.each<[string, Int32Array, RegExp]>([
    [
      "a chunk mapped twice",
      Int32Array.from([-1, -1, -1, -1, -1, ...Array.from({ length: 25 }, (_, i) => i), 0]),
      /maps two labels to chunk 0/,
    ],
    [
      "a chunk number out of range",
      Int32Array.from([-1, -1, -1, -1, -1, ...Array.from({ length: 25 }, (_, i) => i), 26]),
      /maps label 30 to chunk 26, outside 0 to 25/,
    ],
    [
      "a label map shorter than the graph",
      Int32Array.from(Array.from({ length: 26 }, (_, i) => i)),
      /has 26 labels for 31 stored vectors/,
    ],
    [
      "a chunk without a vector",
      Int32Array.from([-1, -1, -1, -1, -1, -1, ...Array.from({ length: 24 }, (_, i) => i), 24]),
      /names 25 chunks but the index has 26/,
    ],
  ])("rejects a label map with %s as INDEX_CORRUPT", async (_name, labels, message) => {
    const { index, domains: next } = await updatedIndex();
    const error = await loadError(withLabels(await savedBytes(index, next), labels), next);
    expect(error.code).toBe("INDEX_CORRUPT");
    expect(error.message).toMatch(message);
  });

  it("rejects a cut or foreign-version label map as INDEX_CORRUPT", async () => {
    const { index, domains: next } = await updatedIndex();
    const bytes = await savedBytes(index, next);
    const version = Buffer.from(bytes);
    version.writeUInt32LE(9, version.length - 12);
    expect((await loadError(version, next)).message).toMatch(/label map of the vector index has version 9/);
    const cut = Buffer.from(bytes);
    cut.writeUInt32LE(0xffffff, cut.length - 16);
    expect((await loadError(cut, next)).message).toMatch(/claims 16777215 labels/);
  });

  it("rejects a label map for a different number of chunks than the index has", async () => {
    const { index, domains: next } = await updatedIndex();
    expect((await loadError(await savedBytes(index, next), next.slice(1))).message).toMatch(
      /maps label 30 to chunk 25, outside 0 to 24/,
    );
  });

  it("refuses to write a superseded index", async () => {
    const built = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    await built.update({ renumber: Int32Array.from({ length: N }, (_, i) => i), domains });
    await expect(writeVectorFile(built, join(await temp.make(), "vectors.hnsw"))).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
  });
});
