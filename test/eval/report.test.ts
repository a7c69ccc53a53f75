import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../src/eval/report/html-report.js";
import { compareVariants, type EvalReport, type ReportVariant } from "../../src/eval/report/report-model.js";
import { formatMetricsTable } from "../../src/eval/report/text-table.js";

function variant(name: string, label: string, mean: Record<string, number>, perQuery: Record<string, Record<string, number>> = {}, extra?: ReportVariant["extra"]): ReportVariant {
  return { name, label, mean, perQuery, ...(extra ? { extra } : {}) };
}

describe("compareVariants", () => {
  const a = variant("L0+L1", "L0+L1", {}, {
    q1: { "nDCG@10": 0.9 },
    q2: { "nDCG@10": 0.2 },
    q3: { "nDCG@10": 0.5 },
    q4: { "nDCG@10": 0.7 },
    q5: { "nDCG@10": 1 },
    q6: { "nDCG@10": 0.3 },
    q7: {},
    q8: { "nDCG@10": 0.45 },
  });
  const b = variant("L0", "L0 only", {}, {
    q1: { "nDCG@10": 0.5 },
    q2: { "nDCG@10": 0.8 },
    q3: { "nDCG@10": 0.5 },
    q4: { "nDCG@10": 0.6 },
    q6: { "nDCG@10": 0.4 },
    q7: { "nDCG@10": 0.25 },
    q8: { "nDCG@10": 0 },
    q9: { "nDCG@10": 1 },
  });
  const result = compareVariants(a, b, "nDCG@10");

  it("names both variants and counts equal scores as ties", () => {
    expect(result.a).toBe("L0+L1");
    expect(result.b).toBe("L0");
    expect(result.ties).toBe(1);
  });

  it("sorts wins by the largest gain first", () => {
    expect(result.wins.map((d) => d.queryId)).toEqual(["q8", "q1", "q4"]);
    expect(result.wins[0]).toEqual({ queryId: "q8", a: 0.45, b: 0, delta: 0.45 });
  });

  it("sorts losses by the largest drop first, reading a missing metric as 0", () => {
    expect(result.losses.map((d) => d.queryId)).toEqual(["q2", "q7", "q6"]);
    expect(result.losses[1]).toEqual({ queryId: "q7", a: 0, b: 0.25, delta: -0.25 });
  });

  it("skips queries that only one variant answered", () => {
    const ids = [...result.wins, ...result.losses].map((d) => d.queryId);
    expect(ids).not.toContain("q5");
    expect(ids).not.toContain("q9");
    expect(result.wins.length + result.losses.length + result.ties).toBe(7);
  });

  it("breaks ties between equal deltas by query id", () => {
    const x = variant("x", "x", {}, { qb: { m: 1 }, qa: { m: 1 }, qc: { m: 0 } });
    const y = variant("y", "y", {}, { qb: { m: 0.5 }, qa: { m: 0.5 }, qc: { m: 0.5 } });
    const compared = compareVariants(x, y, "m");
    expect(compared.wins.map((d) => d.queryId)).toEqual(["qa", "qb"]);
    expect(compared.losses.map((d) => d.queryId)).toEqual(["qc"]);
  });
});

describe("formatMetricsTable", () => {
  const table = formatMetricsTable({
    metrics: ["nDCG@10", "MRR@10"],
    variants: [
      variant("L0", "L0 only", { "nDCG@10": 0.5, "MRR@10": 0.25 }, {}, { "p50 ms": 12.34 }),
      variant("L0+L1", "L0+L1", { "nDCG@10": 0.75 }, {}, { "p50 ms": 3, note: "warm" }),
    ],
  });

  it("pads the label column on the right and every other column on the left, under a dashed rule, with n/a for a metric a variant lacks", () => {
    expect(table.split("\n")).toEqual([
      "variant  nDCG@10  MRR@10  p50 ms  note",
      "-------  -------  ------  ------  ----",
      "L0 only   0.5000  0.2500    12.3      ",
      "L0+L1     0.7500     n/a     3.0  warm",
    ]);
  });

  it("gives every line the same width", () => {
    expect(new Set(table.split("\n").map((line) => line.length)).size).toBe(1);
  });

  it("has no extra columns when no variant has extras", () => {
    const plain = formatMetricsTable({ metrics: ["hit@5"], variants: [variant("L1", "L1 only", { "hit@5": 1 })] });
    expect(plain).toBe(["variant   hit@5", "-------  ------", "L1 only  1.0000"].join("\n"));
  });
});

describe("renderHtmlReport", () => {
  const hostile = `<script>alert("x")</script> refunds & returns`;
  const report: EvalReport = {
    title: "golden-set eval",
    kind: "promptfoo",
    createdAt: "2024-01-01T00:00:00.000Z",
    corpusFingerprint: "fp-1234abcd",
    metrics: ["nDCG@10", "MRR@10", "hit@5"],
    primaryMetric: "nDCG@10",
    variants: [
      variant("L0", "L0 only", { "nDCG@10": 0.5, "MRR@10": 0.25, "hit@5": 1 }, { q1: { "nDCG@10": 0.2 }, q2: { "nDCG@10": 1 } }),
      variant("L0+L1", "L0+L1", { "nDCG@10": 0.75, "MRR@10": 0.5, "hit@5": 1 }, { q1: { "nDCG@10": 0.9 }, q2: { "nDCG@10": 1 } }),
    ],
    queries: { q1: hostile, q2: "when are invoices due" },
    config: { promptfooConfig: "promptfooconfig.yaml", variants: ["L0", "L0+L1"], note: "<b>bold</b>" },
  };
  const html = renderHtmlReport(report);

  it("draws one inline SVG with one bar per variant and metric", () => {
    expect(html.match(/<svg\b/g)).toHaveLength(1);
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
    // Bars carry a <title>; the legend swatches (one per variant) do not.
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(report.variants.length * report.metrics.length);
    expect(svg.match(/<rect /g)).toHaveLength(report.variants.length * report.metrics.length + report.variants.length);
    expect(svg).toContain("<title>L0 only MRR@10: 0.2500</title>");
  });

  it("shows the corpus fingerprint", () => {
    expect(html).toContain("<code>fp-1234abcd</code>");
  });

  it("escapes query text, so a <script> in a query stays text", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; refunds &amp; returns");
  });

  it("embeds the configuration as JSON that parses back to the report's config", () => {
    const pre = /<pre>([\s\S]*?)<\/pre>/.exec(html)?.[1];
    expect(pre).toBeDefined();
    const unescaped = pre!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    expect(JSON.parse(unescaped)).toEqual(report.config);
    expect(pre).not.toContain("<b>");
  });

  it("compares the other variants against L0+L1 on the primary metric", () => {
    expect(html).toContain("<h3>L0+L1 vs L0 only (nDCG@10)</h3>");
    expect(html).toContain("<p>1 wins, 0 losses, 1 ties.</p>");
  });

  it("says there is nothing to compare when there is one variant", () => {
    const single = renderHtmlReport({ ...report, variants: [report.variants[0]] });
    expect(single).toContain("Only one variant: nothing to compare.");
    expect(single.match(/<rect [^>]*><title>/g)).toHaveLength(report.metrics.length);
  });
});
