import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../bench/report/html-report.js";
import { formatReport } from "../../bench/report/print-report.js";
import { checkGoals } from "../../bench/report/goals.js";
import { computeRatios } from "../../bench/report/ratios.js";
import type { BenchReport, SizeReport } from "../../bench/report/report-model.js";
import { escapeHtml, groupedBarChart } from "../../bench/report/svg-charts.js";
import { summarize } from "../../bench/measure/percentile.js";
import type { SystemMeasurement } from "../../bench/measure/measure-systems.js";

function system(id: string, label: string, samples: number[]): SystemMeasurement {
  return {
    id,
    label,
    role: "floor",
    calls: samples.length,
    cappedByBudget: id === "langchain_ensemble",
    distinctQueries: samples.length,
    warmup: { calls: 2, medianMs: samples[0] },
    latency: summarize(samples),
  };
}

function report(): BenchReport {
  const systems = [
    system("langgraph_floor", "empty LangGraph (5 nodes)", [2, 2.2, 2.4]),
    system("tool", "lookup_knowledge tool (traced)", [7.25, 8, 30]),
    system("langchain_ensemble", "LangChain <Ensemble>", [333, 345, 400]),
  ];
  const size: SizeReport = {
    size: 10_000,
    build: {
      size: 10_000,
      chunkCount: 10_000,
      generateMs: 10,
      phases: [
        { phase: "keyword", firstMs: 0, lastMs: 5_000, durationMs: 5_000, events: 2 },
        { phase: "fit", firstMs: 5_000, lastMs: 14_000, durationMs: 9_000, events: 2 },
      ],
      buildMs: 14_500,
      saveSteps: [],
      saveMs: 1_200,
      indexBytes: 45_600_000,
      files: {},
      maxRssKiB: 800_000,
    },
    load: { size: 10_000, loadMs: 900, rssAfterLoadBytes: 1, serve: summarize([1]), maxRssKiB: 500_000 },
    query: {
      size: 10_000,
      queryCount: 300,
      graphNodes: ["a", "b", "c", "d", "e"],
      loadMs: 800,
      setupMs: { raw_flexsearch: 1234 },
      systems,
      toolStages: { l0Ms: summarize([3, 4]) },
      toolCallsWithoutTimings: 0,
      maxRssKiB: 1_000_000,
    },
    ratios: computeRatios(Object.fromEntries(systems.map((s) => [s.id, s.latency]))),
  };
  return {
    schema: "lookup-knowledge-bench/1",
    mode: "quick",
    startedAt: "2026-12-01T00:00:00.000Z",
    finishedAt: "2026-12-01T00:01:00.000Z",
    durationMs: 60_000,
    command: "npm run bench -- --quick",
    machine: {
      os: "linux",
      arch: "x64",
      cpuModel: "Test CPU",
      cpuCount: 2,
      totalMemoryBytes: 2 ** 34,
      node: "v20.0.0",
      loadavgStart: [0.5, 0.4, 0.3],
      loadavgEnd: [1, 1, 1],
    },
    packages: { "@langchain/classic": "1.0.50" },
    dataset: "/data/scifact",
    measure: { warmupCalls: 1, warmupMs: 1, budgetMs: 1_000, minCalls: 1, maxCalls: 3 },
    sizes: [size],
    incremental: null,
    goals: checkGoals([size], null),
    failures: [{ step: "incremental", size: 10_000, message: "KnowledgeBase.update is not there" }],
    notes: ["a note"],
  };
}

describe("the HTML report", () => {
  it("is one self-contained page with inline SVG charts and no external resource", () => {
    const html = renderHtmlReport(report());
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html.match(/<svg /g)?.length).toBe(3);
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!www\.w3\.org)/);
  });

  it("holds the data: systems, their percentiles, ratios, build phases, goals and failures", () => {
    const html = renderHtmlReport(report());
    expect(html).toContain("lookup_knowledge tool (traced)");
    expect(html).toContain("LangChain &lt;Ensemble&gt;");
    expect(html).toContain("<td>8.00</td>"); // tool p50
    expect(html).toContain("3.6x"); // tool p50 / floor p50 (8 / 2.2)
    expect(html).toContain("keyword");
    expect(html).toContain("tool p50 &lt;= 2x floor p50");
    expect(html).toContain("KnowledgeBase.update is not there");
    expect(html).toContain("Test CPU x2");
  });

  it("prints the same figures as a compact table", () => {
    const text = formatReport(report());
    expect(text).toContain("== 10,000 chunks ==");
    expect(text).toMatch(/lookup_knowledge tool \(traced\)\s+3\s+8\.00/);
    expect(text).toContain("FAILED incremental at 10,000");
    expect(text).toMatch(/tool p50 <= 2x floor p50\s+10,000 \(goal at 100,000\)\s+3\.64x\s+2x\s+NOT MET/);
  });
});

describe("svg charts", () => {
  it("escapes labels and draws one bar per positive value", () => {
    const svg = groupedBarChart({
      groups: [
        {
          title: "g",
          rows: [
            { label: "a<b", values: [1, 10] },
            { label: "c", values: [null, 0] },
          ],
        },
      ],
      series: ["p50", "p99"],
      scale: "log",
      unit: "ms",
    });
    expect(svg).toContain("a&lt;b");
    expect(svg.match(/<rect [^>]*><title>/g)?.length).toBe(2);
    expect(escapeHtml(`"&'`)).toBe("&quot;&amp;&#39;");
  });
});
