import { describe, expect, it } from "vitest";
import { defaultDimensions } from "../../../src/l1/embeddings/lsa-fit.js";
import { LsaEmbeddings } from "../../../src/l1/embeddings/lsa-embeddings.js";
import { CORPUS } from "./helpers/small-corpus.js";

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + x * b[i], 0);
}

function length(v: number[]): number {
  return Math.hypot(...v);
}

describe("LsaEmbeddings", () => {
  const model = LsaEmbeddings.fit(CORPUS, { dimensions: 256 });

  it("records the stable kind name lsa", () => {
    expect(model.id).toBe("lsa");
  });

  it("produces bit-identical vectors from two fits of the same corpus and options", async () => {
    const again = LsaEmbeddings.fit(CORPUS, { dimensions: 256 });
    expect(await again.embedDocuments(CORPUS)).toEqual(await model.embedDocuments(CORPUS));
    expect(again.serialize().projection.equals(model.serialize().projection)).toBe(true);
  });

  it("agrees across seeds when the corpus is small enough for the SVD to be exact", async () => {
    const other = LsaEmbeddings.fit(CORPUS, { seed: 7, dimensions: 4 });
    const reference = LsaEmbeddings.fit(CORPUS, { dimensions: 4 });
    const a = await other.embedDocuments(CORPUS);
    const b = await reference.embedDocuments(CORPUS);
    a.forEach((v, i) => v.forEach((x, c) => expect(x).toBeCloseTo(b[i][c], 5)));
  });

  it("returns unit-length vectors of the advertised dimension for documents and queries", async () => {
    const vectors = [...(await model.embedDocuments(CORPUS)), await model.embedQuery("refund for a kubernetes pod")];
    for (const v of vectors) {
      expect(v).toHaveLength(model.dimensions);
      expect(length(v)).toBeCloseTo(1, 12);
    }
  });

  it("caps the dimension at what the corpus supports plus the reserved axis", () => {
    expect(model.dimensions).toBe(CORPUS.length + 1);
    expect(LsaEmbeddings.fit(CORPUS).dimensions).toBe(Math.min(8, CORPUS.length + 1));
    expect(LsaEmbeddings.fit(CORPUS, { dimensions: 5 }).dimensions).toBe(5);
    expect(LsaEmbeddings.fit(CORPUS, { maxVocabulary: 3 }).dimensions).toBe(4);
  });

  it("defaults to 256 dimensions, at most a third of the documents and at least 8", () => {
    expect(defaultDimensions(5183)).toBe(256);
    expect(defaultDimensions(287)).toBe(95);
    expect(defaultDimensions(3)).toBe(8);
  });

  it("places related documents closer than unrelated ones", async () => {
    const [refund, disputes, invoices, deploy, rollback, scaling, vacation, parental] =
      await model.embedDocuments(CORPUS);
    expect(cosine(refund, disputes)).toBeGreaterThan(cosine(refund, deploy));
    expect(cosine(refund, invoices)).toBeGreaterThan(cosine(refund, scaling));
    expect(cosine(deploy, rollback)).toBeGreaterThan(cosine(deploy, refund));
    expect(cosine(deploy, scaling)).toBeGreaterThan(cosine(deploy, vacation));
    expect(cosine(vacation, parental)).toBeGreaterThan(cosine(vacation, rollback));
  });

  it.each([
    ["can I get my money back on my card after a purchase?", 0],
    ["the new release crashed, how do I undo the rollout?", 4],
    ["how much leave do employees get for a new child?", 7],
  ])("ranks the right document first for the paraphrase %j", async (query, expected) => {
    const documents = await model.embedDocuments(CORPUS);
    const q = await model.embedQuery(query);
    const scores = documents.map((d) => cosine(q, d));
    expect(scores.indexOf(Math.max(...scores))).toBe(expected);
  });

  it("embeds a query with no known terms on the reserved axis, unrelated to every document", async () => {
    const q = await model.embedQuery("zxqv plorbt");
    expect(q[q.length - 1]).toBe(1);
    expect(length(q)).toBe(1);
    for (const d of await model.embedDocuments(CORPUS)) expect(Math.abs(cosine(q, d))).toBeLessThan(1e-12);
    expect(await model.embedQuery("")).toEqual(q);
  });

  it("keeps the reserved axis at zero for text with known terms", async () => {
    for (const v of await model.embedDocuments(CORPUS)) expect(v[v.length - 1]).toBe(0);
  });

  it("rejects options that are not integers in range with the option name in the message", () => {
    expect(() => LsaEmbeddings.fit(CORPUS, { dimensions: 0 })).toThrow(/dimensions must be an integer >= 1, got 0/);
    expect(() => LsaEmbeddings.fit(CORPUS, { powerIterations: 1.5 })).toThrow(/powerIterations/);
    expect(() => LsaEmbeddings.fit(CORPUS, { minDocumentFrequency: -1 })).toThrow(/minDocumentFrequency/);
  });

  it("drops terms below the minimum document frequency", async () => {
    const strict = LsaEmbeddings.fit(CORPUS, { minDocumentFrequency: 2 });
    // "chargebacks" occurs in one document only, so on its own it is unknown text.
    const q = await strict.embedQuery("chargebacks");
    expect(q[q.length - 1]).toBe(1);
  });
});

describe("LsaEmbeddings on tiny corpora", () => {
  it("fits a single document into one component plus the reserved axis", async () => {
    const model = LsaEmbeddings.fit(["Kubernetes deployment rollback guide"]);
    expect(model.dimensions).toBe(2);
    expect(await model.embedQuery("rollback")).toEqual([1, 0]);
    expect(await model.embedQuery("payroll")).toEqual([0, 1]);
  });

  it("separates two unrelated documents", async () => {
    const docs = ["refund the card payment", "kubernetes pods crash"];
    const model = LsaEmbeddings.fit(docs);
    expect(model.dimensions).toBe(3);
    const [a, b] = await model.embedDocuments(docs);
    expect(Math.abs(cosine(a, b))).toBeLessThan(1e-6);
    const q = await model.embedQuery("payment refund");
    expect(cosine(q, a)).toBeGreaterThan(cosine(q, b));
  });

  it("accepts a document with no terms and embeds it on the reserved axis", async () => {
    const docs = ["", "refund the card payment", "kubernetes pods crash", "!!! ..."];
    const model = LsaEmbeddings.fit(docs);
    const vectors = await model.embedDocuments(docs);
    expect(vectors[0][model.dimensions - 1]).toBe(1);
    expect(vectors[3][model.dimensions - 1]).toBe(1);
    for (const v of vectors) expect(length(v)).toBeCloseTo(1, 12);
  });

  it("degrades to one dimension when there is no vocabulary at all", async () => {
    for (const docs of [[], [""], ["", "..."]]) {
      const model = LsaEmbeddings.fit(docs);
      expect(model.dimensions).toBe(1);
      expect(await model.embedQuery("anything")).toEqual([1]);
    }
  });

  it("handles duplicate documents without producing NaN", async () => {
    const docs = ["refund policy", "refund policy", "refund policy"];
    const model = LsaEmbeddings.fit(docs);
    for (const v of await model.embedDocuments([...docs, "policy"])) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(length(v)).toBeCloseTo(1, 12);
    }
  });
});
