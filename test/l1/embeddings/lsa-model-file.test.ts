import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LsaEmbeddings } from "../../../src/l1/embeddings/lsa-embeddings.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, loadLsaModel, saveLsaModel } from "../../../src/l1/embeddings/lsa-model-file.js";

const CORPUS = [
  "Refunds are issued to the original payment card within five days.",
  "Chargebacks on card payments are handled by the billing team.",
  "Kubernetes deployments roll out new pods one replica at a time.",
  "Roll back a broken deployment with kubectl rollout undo.",
  "Employees accrue paid leave every month.",
];
const QUERIES = [...CORPUS, "card refund", "kubectl undo", "unknown words only: zzqx"];

describe("LsaEmbeddings serialisation", () => {
  const model = LsaEmbeddings.fit(CORPUS, { dimensions: 4 });

  it("round-trips through serialize and deserialize with identical vectors", async () => {
    const { header, projection } = model.serialize();
    const copy = LsaEmbeddings.deserialize(JSON.parse(JSON.stringify(header)), Buffer.from(projection));
    expect(copy.dimensions).toBe(model.dimensions);
    expect(await copy.embedDocuments(QUERIES)).toEqual(await model.embedDocuments(QUERIES));
  });

  it("writes a small header and a projection of terms × components Float32 values", () => {
    const { header, projection } = model.serialize();
    expect(header).toMatchObject({ kind: "lsa", version: 1, dimensions: 4, documentCount: CORPUS.length });
    expect(projection.byteLength).toBe(header.terms.length * 3 * 4);
    expect(header.fitOptions).toEqual({ dimensions: 4, seed: 42, powerIterations: 0, minDocumentFrequency: 1, maxVocabulary: 100_000 });
  });

  it("rejects a truncated projection buffer and says how many bytes were expected", () => {
    const { header, projection } = model.serialize();
    const expected = projection.byteLength;
    expect(() => LsaEmbeddings.deserialize(header, projection.subarray(0, expected - 4))).toThrow(
      `projection buffer has ${expected - 4} bytes but the header needs ${expected}`,
    );
  });

  it("rejects a header of another version or kind, naming the field", () => {
    const { header, projection } = model.serialize();
    expect(() => LsaEmbeddings.deserialize({ ...header, version: 2 } as never, projection)).toThrow(/unsupported version 2/);
    expect(() => LsaEmbeddings.deserialize({ ...header, kind: "tfidf" } as never, projection)).toThrow(/kind must be "lsa"/);
    expect(() => LsaEmbeddings.deserialize({ ...header, documentFrequencies: [] }, projection)).toThrow(/documentFrequencies/);
  });
});

describe("saveLsaModel and loadLsaModel", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "lsa-model-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("saves both files and loads a model that embeds identically", async () => {
    const model = LsaEmbeddings.fit(CORPUS);
    const dir = join(await tempDir(), "nested");
    await saveLsaModel(dir, model);
    const header = JSON.parse(await readFile(join(dir, LSA_MODEL_FILE), "utf8"));
    expect(header.kind).toBe("lsa");
    const loaded = await loadLsaModel(dir);
    expect(await loaded.embedDocuments(QUERIES)).toEqual(await model.embedDocuments(QUERIES));
  });

  it("fails with a clear message when the projection file is truncated", async () => {
    const dir = await tempDir();
    await saveLsaModel(dir, LsaEmbeddings.fit(CORPUS));
    const projection = await readFile(join(dir, LSA_PROJECTION_FILE));
    await writeFile(join(dir, LSA_PROJECTION_FILE), projection.subarray(0, 10));
    await expect(loadLsaModel(dir)).rejects.toThrow(/projection buffer has 10 bytes/);
  });

  it("fails with a clear message when there is no model in the directory", async () => {
    const dir = await tempDir();
    await expect(loadLsaModel(dir)).rejects.toThrow(/cannot read .*lsa-model\.json; build the index first/);
  });
});
