import { describe, expect, it } from "vitest";
import { adoptLsaModel, LsaEmbeddings } from "../../../src/l1/embeddings/lsa-embeddings.js";

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

  it("adopts a saved header and projection without copying them, embedding as deserialize does", async () => {
    const { header, projection } = model.serialize();
    const owned = Buffer.from(projection);
    const adopted = adoptLsaModel(JSON.parse(JSON.stringify(header)) as typeof header, owned);
    expect(adopted.serialize().projection).toBe(owned);
    expect(await adopted.embedDocuments(QUERIES)).toEqual(await model.embedDocuments(QUERIES));
    expect(() => adoptLsaModel(header, owned.subarray(0, owned.length - 4))).toThrow(/projection/);
  });

  it("copies what deserialize is given, so that the caller may change it afterwards", async () => {
    const { header, projection } = model.serialize();
    const given = Buffer.from(projection);
    const copy = LsaEmbeddings.deserialize(header, given);
    given.fill(0);
    expect(copy.serialize().projection).not.toBe(given);
    expect(await copy.embedDocuments(QUERIES)).toEqual(await model.embedDocuments(QUERIES));
  });

  it("writes a small header and a projection of terms × components Float32 values", () => {
    const { header, projection } = model.serialize();
    expect(header).toMatchObject({ kind: "lsa", version: 1, dimensions: 4, documentCount: CORPUS.length });
    expect(projection.byteLength).toBe(header.terms.length * 3 * 4);
    expect(header.fitOptions).toEqual({
      dimensions: 4,
      seed: 42,
      powerIterations: 0,
      minDocumentFrequency: 1,
      maxVocabulary: 100_000,
      maxFitDocuments: 20_000,
    });
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
    expect(() => LsaEmbeddings.deserialize({ ...header, version: 2 } as never, projection)).toThrow(
      /unsupported version 2/,
    );
    expect(() => LsaEmbeddings.deserialize({ ...header, kind: "tfidf" } as never, projection)).toThrow(
      /kind must be "lsa"/,
    );
    expect(() => LsaEmbeddings.deserialize({ ...header, documentFrequencies: [] }, projection)).toThrow(
      /documentFrequencies/,
    );
  });
});
