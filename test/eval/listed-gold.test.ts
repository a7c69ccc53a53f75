import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../src/eval/report/html-report.js";
import { beirReport, listedGold, MAX_GOLD_LISTED } from "../../src/eval/runner/beir-report.js";
import { fakeBeirResult, fakeVariant } from "./helpers/beir-eval-result.js";

/** q1 judges 500 documents relevant; the variant shows two of them, far down the qrels. */
const many = new Map([["q1", new Map(Array.from({ length: 500 }, (_, i) => [`d${i}`, 1]))]]);
const variant = fakeVariant("L0", { q1: 0.5 }, { q1: ["d499", "x1", "d300"] });

describe("listedGold", () => {
  it("lists every relevant document of a query with no more than the limit", () => {
    const few = new Map([["q1", new Map([["d1", 1], ["d2", 0], ["d3", 2]])]]);
    expect(listedGold(fakeBeirResult([variant], few))).toEqual({ gold: { q1: ["d1", "d3"] }, totals: {} });
  });

  it("cuts a long list to the limit, keeping the documents a variant shows and recording the total", () => {
    const { gold, totals } = listedGold(fakeBeirResult([variant], many));
    expect(gold.q1).toHaveLength(MAX_GOLD_LISTED);
    expect(gold.q1).toContain("d499");
    expect(gold.q1).toContain("d300");
    expect(gold.q1.slice(0, 3)).toEqual(["d0", "d1", "d2"]);
    expect(totals).toEqual({ q1: 500 });
  });

  it("keeps the report's size independent of how many documents a query judges", () => {
    const report = beirReport(fakeBeirResult([variant], many));
    expect(report.rankings?.goldTotals).toEqual({ q1: 500 });
    expect(Object.keys(report.rankings?.titles ?? {}).length).toBeLessThanOrEqual(MAX_GOLD_LISTED + 1);
    const html = renderHtmlReport(report);
    expect(html).toContain("and 450 more judged-relevant documents, not listed");
    expect(html).not.toContain("<code>d200</code>");
  });
});
