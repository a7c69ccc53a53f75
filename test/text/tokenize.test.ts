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
