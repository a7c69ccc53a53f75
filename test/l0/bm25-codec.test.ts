import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { Bm25Stats } from "../../src/l0/bm25.js";
import { BM25_FORMAT_VERSION } from "../../src/l0/bm25-codec.js";
import { craftBm25, SMALL, SMALL_DOCS, type CraftedBm25 } from "./bm25-craft.js";

/** `Bm25Stats.fromDocuments([["refund", "policy"], ["refund", "refund", "delay"]]).encode()` as version 2 wrote it. */
const VERSION_2 = Buffer.from(
  "X3siZm9ybWF0IjoibG9va3VwLWtub3dsZWRnZS1ibTI1IiwidmVyc2lvbiI6MiwiazEiOjAuOSwiYiI6MC40LCJ0ZXJtcyI6MywiZG9jcyI6MiwicG9zdGluZ3MiOjR9E3JlZnVuZApwb2xpY3kKZGVsYXkCAwIAAQACAQABAQEB",
  "base64",
);

function expectRefused(bytes: Uint8Array, message: RegExp): void {
  try {
    Bm25Stats.decode(bytes);
    expect.unreachable("decoded a malformed file");
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("INDEX_CORRUPT");
    expect((error as Error).message).toMatch(message);
  }
}

const header = (changes: Record<string, unknown>) => ({
  format: "lookup-knowledge-bm25",
  version: 3,
  k1: 0.9,
  b: 0.4,
  terms: 3,
  docs: 3,
  postings: 5,
  ...changes,
});
const crafted = (changes: Partial<CraftedBm25>) => craftBm25({ ...SMALL, ...changes });

describe("the BM25 binary form", () => {
  it("is version 3, laid out as the format comment says", () => {
    expect(BM25_FORMAT_VERSION).toBe(3);
    expect(Bm25Stats.fromDocuments(SMALL_DOCS).encode()).toEqual(craftBm25(SMALL));
  });

  it("refuses version 2 files", () => {
    expect(
      Bm25Stats.fromDocuments([
        ["refund", "policy"],
        ["refund", "refund", "delay"],
      ]).encode(),
    ).not.toEqual(new Uint8Array(VERSION_2));
    expectRefused(VERSION_2, /not version 3 postings/);
  });

  it("refuses every truncation and any byte appended", () => {
    const bytes = Bm25Stats.fromDocuments(SMALL_DOCS).encode();
    for (let length = 0; length < bytes.length; length++) expectRefused(bytes.subarray(0, length), /BM25 postings/);
    expectRefused(Uint8Array.from([...bytes, 0]), /posting blocks of 10 bytes in total, but 11 bytes follow the table/);
  });

  it("refuses a term table whose posting counts do not add up to the header's", () => {
    expectRefused(crafted({ header: header({ postings: 6 }) }), /hold 5 postings, not the 6 their header counts/);
    expectRefused(crafted({ header: header({ postings: 4 }) }), /hold more postings than the 4 their header counts/);
  });

  it("refuses a term table whose block lengths do not add up to the rest of the file", () => {
    expectRefused(
      crafted({
        table: [
          [2, 4],
          [2, 4],
          [1, 3],
        ],
      }),
      /posting blocks of 11 bytes in total, but 10 bytes follow the table/,
    );
    expectRefused(
      crafted({
        table: [
          [2, 4],
          [2, 4],
          [1, 2],
        ],
        trailer: [7],
      }),
      /posting blocks of 10 bytes in total, but 11 bytes follow the table/,
    );
  });

  it("refuses a block too short or too long for its postings, or a term in more documents than there are", () => {
    expectRefused(
      crafted({
        table: [
          [2, 3],
          [2, 5],
          [1, 2],
        ],
      }),
      /give term 0 2 postings in a block of 3 bytes/,
    );
    expectRefused(
      crafted({ rawBlocks: { 2: { df: 1, bytes: [1, 2, ...new Array<number>(9).fill(0)] } } }),
      /give term 2 1 postings in a block of 11 bytes/,
    );
    expectRefused(
      crafted({
        docLengths: [2, 3],
        header: header({ docs: 2 }),
        rawBlocks: { 1: { df: 3, bytes: [0, 1, 0, 1, 0, 1] } },
      }),
      /give term 1 3 postings/,
    );
  });

  it("refuses a term listed twice, terms that are not UTF-8, and a document length not in shortest form", () => {
    expectRefused(crafted({ terms: ["alpha", "gamma", "alpha"] }), /list a term twice/);
    const bytes = craftBm25(SMALL);
    // Both lengths are under 128, so each takes one byte.
    const termsAt = 1 + bytes[0] + 1;
    const docLengthsAt = termsAt + bytes[termsAt - 1];
    const broken = Uint8Array.from(bytes);
    broken[termsAt] = 0xff;
    expectRefused(broken, /hold text that is not UTF-8/);
    expectRefused(
      Uint8Array.from([...bytes.subarray(0, docLengthsAt), 0x82, 0x00, ...bytes.subarray(docLengthsAt + 1)]),
      /not in its shortest form/,
    );
  });

  it("re-encodes a header written in another form as the encoder writes it", () => {
    const reordered = { postings: 5, docs: 3, terms: 3, b: 0.4, k1: 0.9, version: 3, format: "lookup-knowledge-bm25" };
    const stats = Bm25Stats.decode(crafted({ header: reordered }));
    expect(stats.encode()).toEqual(craftBm25(SMALL));
    expect(stats.topK(["gamma"], 5)).toEqual(Bm25Stats.fromDocuments(SMALL_DOCS).topK(["gamma"], 5));
  });

  it("keeps a term that starts with a byte-order mark", () => {
    const stats = Bm25Stats.fromDocuments([["\uFEFFmark", "plain"], ["plain"]]);
    const restored = Bm25Stats.decode(stats.encode());
    expect(restored.terms).toEqual(["\uFEFFmark", "plain"]);
    expect(restored.encode()).toEqual(stats.encode());
  });
});
