import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../../src/errors.js";
import { fitSample } from "../../../src/l1/embeddings/lsa-fit.js";
import { LsaEmbeddings } from "../../../src/l1/embeddings/lsa-embeddings.js";
import { bagOf, termBagsOf } from "../../../src/text/term-bags.js";
import { CORPUS as SMALL_CORPUS } from "./helpers/small-corpus.js";

const CORPUS = [...SMALL_CORPUS, ""];

const QUERIES = [
  "can I get my money back on my card?",
  "kubectl rollout undo",
  "zxqv plorbt",
  "",
  "leave leave leave for a child",
];

function sameModel(a: LsaEmbeddings, b: LsaEmbeddings): void {
  const x = a.serialize();
  const y = b.serialize();
  expect(x.header).toEqual(y.header);
  expect(x.projection.equals(y.projection)).toBe(true);
}

describe("LsaEmbeddings.fitBags", () => {
  it.each([{}, { dimensions: 4 }, { maxVocabulary: 5 }, { minDocumentFrequency: 2 }, { seed: 7, powerIterations: 1 }])(
    "fits the model bit-identical to fit(texts) on the same texts (options %j)",
    (options) => {
      const bags = termBagsOf(CORPUS);
      sameModel(LsaEmbeddings.fitBags(bags, options), LsaEmbeddings.fit(CORPUS, options));
    },
  );

  it("gives the same model whatever order the bag vocabulary's ids come in", () => {
    // Ids follow first appearance, so reversing the corpus renumbers every term.
    const reversed = termBagsOf([...CORPUS].reverse());
    const bags = { ...reversed, bags: [...reversed.bags].reverse(), lengths: reversed.lengths.slice().reverse() };
    sameModel(LsaEmbeddings.fitBags(bags), LsaEmbeddings.fit(CORPUS));
  });

  it("records that a corpus within maxFitDocuments was fitted on all of its documents", () => {
    const model = LsaEmbeddings.fitBags(termBagsOf(CORPUS));
    expect(model.fittedOn).toEqual({ documents: CORPUS.length, svdDocuments: CORPUS.length });
    expect(model.serialize().header.svdDocumentCount).toBe(CORPUS.length);
  });
});

describe("LsaEmbeddings.embedBag", () => {
  const model = LsaEmbeddings.fit(CORPUS, { dimensions: 6 });

  it("embeds every document's bag exactly as embedSync embeds its text", () => {
    const bags = termBagsOf(CORPUS);
    bags.bags.forEach((bag, i) => expect(model.embedBag(bag, bags.terms)).toEqual(model.embedSync(CORPUS[i])));
  });

  it("embeds texts tokenized later into a growing vocabulary exactly as embedSync does", () => {
    const bags = termBagsOf(CORPUS);
    for (const query of QUERIES) {
      const bag = bagOf(query, bags);
      expect(model.embedBag(bag, bags.terms)).toEqual(model.embedSync(query));
    }
  });

  it("writes the same vector as 32-bit floats at the offset with embedBagInto", () => {
    const bags = termBagsOf(CORPUS);
    const d = model.dimensions;
    const out = new Float32Array(3 * d).fill(9);
    model.embedBagInto(bags.bags[4], bags.terms, out, d);
    expect(Array.from(out.subarray(d, 2 * d))).toEqual(model.embedSync(CORPUS[4]).map(Math.fround));
    expect(Array.from(out.subarray(0, d)).every((x) => x === 9)).toBe(true);
  });

  it("rejects a bag whose term ids lie outside the vocabulary it is given", () => {
    const bags = termBagsOf(CORPUS);
    const error = (() => {
      try {
        model.embedBag(Uint32Array.from([bags.terms.length, 1]), bags.terms);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("INVALID_OPTION");
  });

  it("measures the share of tokens outside the model's vocabulary", () => {
    const strict = LsaEmbeddings.fit(CORPUS.slice(0, 3));
    const bags = termBagsOf(["refund refund kubernetes", "payment"]);
    // refund ×2 and payment are known, kubernetes is not: 1 of 4 tokens.
    expect(strict.unknownTokenShare(bags)).toBeCloseTo(0.25, 15);
    expect(strict.unknownTokenShare(termBagsOf([""]))).toBe(0);
  });
});

describe("fitting on a sample above maxFitDocuments", () => {
  const topics = [
    "refund card payment billing",
    "kubernetes pods deployment rollout",
    "vacation leave employees manager",
  ];
  const texts = Array.from({ length: 60 }, (_, i) => `${topics[i % 3]} note ${i % 7} item ${i % 11}`);
  const sample = fitSample(texts.length, 12, 42);
  const outside =
    Array.from({ length: texts.length }, (_, i) => i).find((i) => !sample?.includes(i) && i % 3 === 1) ?? -1;
  texts[outside] += " zebrafish";

  it("draws an ascending sample with one document from each equal stretch of the corpus", () => {
    expect(fitSample(12, 12, 42)).toBeNull();
    expect(sample).toHaveLength(12);
    sample?.forEach((d, j) => {
      expect(d).toBeGreaterThanOrEqual(j * 5);
      expect(d).toBeLessThan((j + 1) * 5);
    });
    expect(fitSample(texts.length, 12, 42)).toEqual(sample);
  });

  it("records the sample size and the whole corpus in the header, and refits identically", () => {
    const model = LsaEmbeddings.fit(texts, { maxFitDocuments: 12 });
    expect(model.fittedOn).toEqual({ documents: 60, svdDocuments: 12 });
    expect(model.serialize().header.fitOptions.maxFitDocuments).toBe(12);
    sameModel(model, LsaEmbeddings.fitBags(termBagsOf(texts), { maxFitDocuments: 12 }));
  });

  it("keeps a term that only unsampled documents hold, with a projection that finds them", async () => {
    const model = LsaEmbeddings.fit(texts, { maxFitDocuments: 12 });
    expect(model.serialize().header.terms).toContain("zebrafish");
    const query = await model.embedQuery("zebrafish");
    expect(query[query.length - 1]).toBe(0);
    const documents = await model.embedDocuments(texts);
    const scores = documents.map((d) => d.reduce((sum, x, c) => sum + x * query[c], 0));
    expect(scores.indexOf(Math.max(...scores))).toBe(outside);
  });

  it("rejects a maxFitDocuments that is not an integer of at least 1", () => {
    expect(() => LsaEmbeddings.fit(texts, { maxFitDocuments: 0 })).toThrow(
      /maxFitDocuments must be an integer >= 1, got 0/,
    );
  });
});

describe("the LSA header's fit record", () => {
  const { header, projection } = LsaEmbeddings.fit(CORPUS, { dimensions: 4 }).serialize();

  it("loads a header saved before sampling existed as fitted on every document", () => {
    const { svdDocumentCount: _unused, ...old } = header;
    expect(LsaEmbeddings.deserialize(old, projection).fittedOn).toEqual({
      documents: CORPUS.length,
      svdDocuments: CORPUS.length,
    });
  });

  it("rejects a header whose SVD sample is larger than its corpus", () => {
    expect(() => LsaEmbeddings.deserialize({ ...header, svdDocumentCount: CORPUS.length + 1 }, projection)).toThrow(
      /svdDocumentCount must be an integer between 0 and documentCount/,
    );
  });
});
