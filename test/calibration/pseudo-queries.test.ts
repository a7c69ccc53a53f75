import { describe, expect, it } from "vitest";
import { samplePseudoQueries, sentencesOf } from "../../src/calibration/pseudo-queries.js";

/** A word list of `count` distinct words, joined with spaces. */
function words(count: number, stem = "term"): string {
  return Array.from(
    { length: count },
    (_, i) => `${stem}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
  ).join(" ");
}

/** A chunk text of three usable sentences whose words are its own. */
function chunkText(i: number): string {
  return [
    `Refund request ${i} needs approval from the billing team lead.`,
    `Invoice batch ${i} runs every night after the ledger closes.`,
    `Customer account ${i} is frozen while the dispute is reviewed.`,
  ].join(" ");
}

const TEXTS = Array.from({ length: 50 }, (_, i) => chunkText(i));

describe("sentencesOf", () => {
  it("splits at sentence ends and line breaks", () => {
    expect(sentencesOf("One sentence here. Another one! A question?\nA line without a stop")).toEqual([
      "One sentence here.",
      "Another one!",
      "A question?",
      "A line without a stop",
    ]);
  });

  it("drops list markers, quote marks, heading marks and table pipes", () => {
    expect(
      sentencesOf("- first item here\n* second item\n| cell a | cell b |\n> quoted line\n## A heading\n\n   "),
    ).toEqual(["first item here", "second item", "cell a | cell b", "quoted line", "A heading"]);
  });
});

describe("samplePseudoQueries", () => {
  it("draws the same pseudo-queries for the same seed and others for another seed", () => {
    const first = samplePseudoQueries(TEXTS, 20, 7);

    expect(samplePseudoQueries(TEXTS, 20, 7)).toEqual(first);
    expect(samplePseudoQueries(TEXTS, 20, 8)).not.toEqual(first);
  });

  it("draws at most one pseudo-query per chunk", () => {
    const queries = samplePseudoQueries(TEXTS, 40, 3);

    expect(queries).toHaveLength(40);
    expect(new Set(queries.map((query) => query.chunk)).size).toBe(40);
  });

  it("takes the query sentence out of the held-out text and keeps the rest of the chunk", () => {
    for (const query of samplePseudoQueries(TEXTS, 50, 11)) {
      const sentences = sentencesOf(TEXTS[query.chunk]);

      expect(sentences).toContain(query.query);
      expect(query.heldOut).not.toContain(query.query);
      for (const other of sentences.filter((sentence) => sentence !== query.query))
        expect(query.heldOut).toContain(other);
    }
  });

  it("never asks a sentence of 4 words or of 41 words", () => {
    const texts = Array.from(
      { length: 30 },
      (_, i) =>
        `${words(4, `short${i}x`)}.\n${words(41, `long${i}x`)}.\nThe only usable sentence of chunk ${i} is this one.`,
    );

    for (const seed of [1, 2, 3, 4, 5]) {
      const queries = samplePseudoQueries(texts, 30, seed);

      expect(queries).toHaveLength(30);
      for (const query of queries)
        expect(query.query).toBe(`The only usable sentence of chunk ${query.chunk} is this one.`);
    }
  });

  it("asks sentences of exactly 5 and exactly 40 words", () => {
    const texts = [`${words(5, "five")}.\n${words(3, "rest")}`, `${words(40, "forty")}.\n${words(3, "rest")}`];

    expect(
      samplePseudoQueries(texts, 2, 1)
        .map((query) => query.query)
        .sort(),
    ).toEqual([`${words(40, "forty")}.`, `${words(5, "five")}.`].sort());
  });

  it("skips a chunk whose only sentence is the query, which leaves nothing to score", () => {
    expect(samplePseudoQueries(["Refunds are accepted within thirty days of purchase."], 1, 42)).toEqual([]);
  });

  it("returns fewer pseudo-queries than asked when fewer chunks are usable", () => {
    const texts = [...TEXTS.slice(0, 5), "Too short.", "", "| a | b |"];

    const queries = samplePseudoQueries(texts, 100, 42);

    expect(queries).toHaveLength(5);
    expect(queries.every((query) => query.chunk < 5)).toBe(true);
  });
});

describe("pseudo-queries from Chinese and Japanese text", () => {
  const chinese = Array.from(
    { length: 3 },
    (_, i) => `第${i}号规则：退款金额超过五百欧元时需要财务经理审批并记录原因。年假最多可以结转五天到下一年度使用。`,
  ).join("");
  const japanese =
    "本番環境へのリリースは毎週木曜日の午前中に行います。ロールバックはオンコール担当者がいつでも実行できます。";

  it("splits sentences after 。 without a following space", () => {
    expect(sentencesOf(japanese)).toEqual([
      "本番環境へのリリースは毎週木曜日の午前中に行います。",
      "ロールバックはオンコール担当者がいつでも実行できます。",
    ]);
  });

  it("counts two characters as a word, so sentences without spaces can be questions", () => {
    const drawn = samplePseudoQueries([chinese, japanese], 2, 7);

    expect(drawn).toHaveLength(2);
    for (const query of drawn) expect(query.query).toMatch(/。$/);
  });
});
