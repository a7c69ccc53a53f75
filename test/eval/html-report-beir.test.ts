import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../src/eval/report/html-report.js";
import { beirReport } from "../../src/eval/runner/beir-report.js";
import { fakeBeirResult, fakeVariant } from "./helpers/beir-eval-result.js";

const VOID = new Set(["br", "meta", "hr", "img", "input", "link"]);

/** Open tags left unclosed or closed out of order; empty for well-nested markup. */
function nestingErrors(html: string): string[] {
  const stack: string[] = [];
  const errors: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, rawName, selfClosing] = match;
    const name = rawName.toLowerCase();
    if (VOID.has(name) || selfClosing) continue;
    if (!closing) stack.push(name);
    else if (stack.pop() !== name) errors.push(`</${name}> at ${match.index}`);
  }
  return [...errors, ...stack.map((name) => `<${name}> never closed`)];
}

const hostileDoc = `<img src=x onerror="alert(1)">&'`;
const qrels = new Map([
  ["q1", new Map([["d1", 1]])],
  ["q<2>", new Map([[hostileDoc, 1], ["d9", 1]])],
]);
const l0 = fakeVariant("L0", { q1: 1, "q<2>": 0 }, { q1: ["d1", "d4"], "q<2>": ["d5"] }, 8);
const fused = fakeVariant("L0+L1", { q1: 0.5, "q<2>": 1 }, { q1: ["d4", "d1"], "q<2>": [hostileDoc, "d5"] }, 10);
const result = fakeBeirResult([l0, fused], qrels);
result.titles.set(hostileDoc, `<script>alert("t")</script>`);
result.queryTexts["q<2>"] = `claims <b>bold</b> & "quoted"`;
const report = beirReport(result);
const html = renderHtmlReport(report);

function section(id: string): string {
  const start = html.indexOf(`<h2 id="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  const next = html.indexOf("<h2 ", start + 1);
  return html.slice(start, next < 0 ? undefined : next);
}

describe("the BEIR HTML report", () => {
  it("is well nested: every table, details, row and cell is closed in order", () => {
    expect(nestingErrors(html)).toEqual([]);
  });

  it("links every section it has from the navigation", () => {
    for (const id of ["metrics", "significance", "latency", "calibration", "wins", "ranked", "config"]) expect(html).toContain(`<a href="#${id}">`);
    expect(html).not.toContain('<a href="#baselines">');
  });

  it("shows each pair's mean difference and both p-values", () => {
    const s = section("significance");
    expect(s).toContain("<td>L0+L1 vs L0 only</td><td>2</td>");
    expect(s).toMatch(/<td>\+0\.2500<\/td><td>\d\.\d{4}<\/td><td>\d\.\d{4}<\/td>/);
    expect(s).toContain("10,000 random assignments, seed 42");
  });

  it("shows each variant's latency percentiles and the graph floor", () => {
    const s = section("latency");
    expect(s).toContain("<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th>");
    expect(s).toContain("<tr><td>L0 only</td><td>2</td><td>9.00</td><td>8.00</td><td>16.00</td><td>24.00</td><td>32.00</td>");
    expect(s).toContain('<tr class="floor"><td>graph floor</td>');
    expect(s).toContain("<td>8.0×</td>");
  });

  it("shows the calibration values in effect, with the weight actually used", () => {
    const s = section("calibration");
    expect(s).toContain("<tr><td>fusion l0Weight</td><td>0.8</td></tr>");
    expect(s).toContain("<tr><td>l0Weight from</td><td>built-in default</td></tr>");
  });

  it("lists every query in its own collapsed block, with gold documents starred and highlighted", () => {
    const s = section("ranked");
    expect(s.match(/<details id="q\d+">/g)).toHaveLength(2);
    const q1 = s.slice(s.indexOf('<details id="q0">'), s.indexOf('<details id="q1">'));
    expect(q1).toContain('<td class="gold"><span class="mark" title="judged relevant">★</span> <code>d1</code> Title of d1<br><small>L0:bm25:9.00</small></td>');
    expect(q1).toContain("<td><code>d4</code> Title of d4");
    expect(q1).toContain("(rank: L0 only 1, L0+L1 2)");
  });

  it("marks a gold document no variant retrieved with a dash", () => {
    expect(section("ranked")).toContain("<code>d9</code> Title of d9 <small>(rank: L0 only —, L0+L1 —)</small>");
  });

  it("escapes document ids, titles, query ids and query texts from the dataset", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("<code>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</code>");
    expect(html).toContain("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;");
    expect(html).toContain("<code>q&lt;2&gt;</code> claims &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;");
  });

  it("shows published baselines beside this run's figures for a known dataset", () => {
    const scifact = renderHtmlReport({ ...report, baselines: [{ system: "BM25 (Elasticsearch)", source: "BEIR paper, Thakur et al. 2021, Table 2", metrics: { "nDCG@10": 0.665 } }] });
    const start = scifact.indexOf('<h2 id="baselines"');
    const s = scifact.slice(start, scifact.indexOf("<h2 ", start + 1));
    expect(s).toContain('<tr><td>BM25 (Elasticsearch)</td><td>BEIR paper, Thakur et al. 2021, Table 2</td><td class="n">0.665</td></tr>');
    expect(s).toContain('<tr class="ours"><td>L0+L1</td><td>this run</td><td class="n">0.750</td></tr>');
  });

  it("leaves the new sections out of a report that has none of them (the promptfoo summary)", () => {
    const plain = renderHtmlReport({ ...report, latencyFloor: undefined, significance: undefined, calibration: undefined, rankings: undefined, variants: report.variants.map(({ latency: _l, ...v }) => v) });
    for (const id of ["significance", "latency", "calibration", "ranked"]) expect(plain).not.toContain(`id="${id}"`);
    expect(nestingErrors(plain)).toEqual([]);
  });
});
