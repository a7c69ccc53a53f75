import { describe, expect, it } from "vitest";
import { tokenize } from "../../src/text/tokenize.js";

describe("tokenize", () => {
  it("drops stopwords", () => {
    expect(tokenize("the refund of an order")).toEqual(["refund", "order"]);
  });

  it("keeps stopwords when asked to", () => {
    expect(tokenize("the refund", { removeStopwords: false })).toEqual(["the", "refund"]);
  });

  it("lower-cases and folds accents", () => {
    expect(tokenize("Café Résumé", { stem: false })).toEqual(["cafe", "resume"]);
  });

  it("drops the possessive ending", () => {
    expect(tokenize("the customer's invoice", { stem: false })).toEqual(["customer", "invoice"]);
    expect(tokenize("the customer’s invoice", { stem: false })).toEqual(["customer", "invoice"]);
  });

  it("maps Refunds and refunded to the same term", () => {
    const [plural] = tokenize("Refunds");
    const [past] = tokenize("refunded");
    expect(plural).toBe("refund");
    expect(past).toBe(plural);
  });

  it("leaves words unstemmed when stemming is off", () => {
    expect(tokenize("Refunds refunded", { stem: false })).toEqual(["refunds", "refunded"]);
  });

  it("keeps numbers as terms", () => {
    expect(tokenize("error 502 in 2024")).toEqual(["error", "502", "2024"]);
  });

  it("returns no terms for punctuation only", () => {
    expect(tokenize(" -- !? ")).toEqual([]);
  });
});

describe("tokenize on text without Chinese, Japanese or Korean characters", () => {
  // The terms of term rules version 1, which version 2 must not change for such text.
  const VERSION_1: [text: string, terms: string[], unstemmed: string[]][] = [
    [
      "How do I roll back a bad deploy with Helmsman?",
      ["roll", "back", "bad", "deploy", "helmsman"],
      ["how", "do", "i", "roll", "back", "a", "bad", "deploy", "with", "helmsman"],
    ],
    [
      "The customer's refunds were approved by the finance team in 2024.",
      ["custom", "refund", "approv", "financ", "team", "2024"],
      ["the", "customer", "refunds", "were", "approved", "by", "the", "finance", "team", "in", "2024"],
    ],
    [
      "Café, résumé, naïve façade; Zürich and São Paulo",
      ["cafe", "resum", "naiv", "facad", "zurich", "sao", "paulo"],
      ["cafe", "resume", "naive", "facade", "zurich", "and", "sao", "paulo"],
    ],
    [
      "Crème brûlée at the Hôtel de l’Europe’s restaurant",
      ["creme", "brule", "hotel", "de", "leurop", "s", "restaur"],
      ["creme", "brulee", "at", "the", "hotel", "de", "leurope", "s", "restaurant"],
    ],
    [
      "Ελληνικά κείμενα: Αθήνα και Θεσσαλονίκη",
      ["ελληνικα", "κειμενα", "αθηνα", "και", "θεσσαλονικη"],
      ["ελληνικα", "κειμενα", "αθηνα", "και", "θεσσαλονικη"],
    ],
    ["Привет, мир! Ёлка и йогурт", ["привет", "мир", "елка", "и", "иогурт"], ["привет", "мир", "елка", "и", "иогурт"]],
    [
      "ﬁnance ﬂow — ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ １２３",
      ["financ", "flow", "full", "width", "abc", "123"],
      ["finance", "flow", "full", "width", "abc", "123"],
    ],
    ["Straße Øresund Łódź", ["straße", "øresund", "łodz"], ["straße", "øresund", "łodz"]],
  ];

  it("gives English and accented Latin, Greek and Cyrillic text the terms of version 1", () => {
    for (const [text, terms, unstemmed] of VERSION_1) {
      expect(tokenize(text), text).toEqual(terms);
      expect(tokenize(text, { stem: false, removeStopwords: false }), text).toEqual(unstemmed);
    }
  });
});
