import { describe, expect, it } from "vitest";
import { stem } from "../../src/text/stem.js";

/** Known Porter2 ("English Snowball") outputs, including the sample vocabulary of the algorithm's description. */
const PORTER2_PAIRS: readonly [word: string, expected: string][] = [
  // Inflections that must meet on one term.
  ["refunds", "refund"],
  ["refunded", "refund"],
  ["refunding", "refund"],
  ["running", "run"],
  ["hopping", "hop"],
  ["hoped", "hope"],
  ["hoping", "hope"],
  ["knitted", "knit"],
  ["knitting", "knit"],
  ["kneeled", "kneel"],
  // Step 1a plurals.
  ["caresses", "caress"],
  ["cries", "cri"],
  ["ties", "tie"],
  ["gaps", "gap"],
  ["gas", "gas"],
  ["kiwis", "kiwi"],
  ["knives", "knive"],
  ["knackeries", "knackeri"],
  // Step 1b: "eed" only in R1, "ed"/"ing" only after a vowel.
  ["feed", "feed"],
  ["agreed", "agre"],
  ["consigned", "consign"],
  ["consolingly", "consol"],
  // Step 1c.
  ["happy", "happi"],
  ["conspiracy", "conspiraci"],
  ["consolatory", "consolatori"],
  // Steps 2 to 5 and the regions.
  ["generously", "generous"],
  ["relational", "relat"],
  ["national", "nation"],
  ["generate", "generat"],
  ["communism", "communism"],
  ["consistently", "consist"],
  ["consistency", "consist"],
  ["consignment", "consign"],
  ["consolation", "consol"],
  ["consolidated", "consolid"],
  ["consonant", "conson"],
  ["conspicuously", "conspicu"],
  ["conspirators", "conspir"],
  ["constable", "constabl"],
  ["constancy", "constanc"],
  ["knightly", "knight"],
  ["knave", "knave"],
  ["knavish", "knavish"],
  ["knocker", "knocker"],
  ["knell", "knell"],
  // Exceptions.
  ["skies", "sky"],
  ["dying", "die"],
  ["news", "news"],
  ["innings", "inning"],
  ["succeeded", "succeed"],
  ["only", "onli"],
];

describe("stem", () => {
  it.each(PORTER2_PAIRS)("stems %s to %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it("leaves words of two letters or fewer unchanged", () => {
    for (const word of ["a", "is", "as", "us", "ed"]) expect(stem(word)).toBe(word);
  });

  it("leaves numbers and words with digits unchanged", () => {
    for (const word of ["19", "2024", "1990s", "covid19"]) expect(stem(word)).toBe(word);
  });

  it("leaves words outside lower-case a-z unchanged", () => {
    for (const word of ["Refunds", "übungen", "данные"]) expect(stem(word)).toBe(word);
  });

  it("treats a y after a vowel as a consonant and restores it in the output", () => {
    expect(stem("enjoying")).toBe("enjoy");
    expect(stem("boy")).toBe("boy");
  });

  it("drops possessive apostrophe endings", () => {
    expect(stem("dog's")).toBe("dog");
    expect(stem("dogs'")).toBe("dog");
  });
});
