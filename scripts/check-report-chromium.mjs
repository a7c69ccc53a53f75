#!/usr/bin/env node
// Renders a BEIR eval report in headless Chromium, as a reader's browser would, and checks the
// rendered DOM against the report's own results.json: every section is there, one collapsed block
// per query, as many starred gold cells as the ranked lists hold gold documents, p-values and
// latency figures shown, no "NaN" or "undefined" on the page. Also writes a screenshot to look at.
//
// Usage: node scripts/check-report-chromium.mjs [REPORT_DIR] [--screenshot FILE]
//   REPORT_DIR    a folder with report.html and results.json (default: eval/reference/beir-scifact-test)
//   --screenshot  where the 1280x4000 screenshot goes (default: <tmpdir>/beir-report-check.png)
// Chromium is looked up as $CHROMIUM, then chromium, chromium-browser, google-chrome on PATH; when
// none is found the script fails (exit 1) and says how to install it (apt-get install -y chromium).
// Prints "[check-report] <check>: ok|FAILED - <detail>" per check; exits 1 when any check fails.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const PREFIX = "[check-report]";
const args = process.argv.slice(2);
const shotFlag = args.indexOf("--screenshot");
const screenshot = shotFlag >= 0 ? resolve(args[shotFlag + 1]) : join(tmpdir(), "beir-report-check.png");
const dir = resolve(
  args.find((arg, i) => !arg.startsWith("--") && args[i - 1] !== "--screenshot") ?? "eval/reference/beir-scifact-test",
);

function findChromium() {
  const candidates = [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome"].filter(Boolean);
  for (const candidate of candidates) {
    const found = spawnSync("sh", ["-c", `command -v "${candidate}"`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  return null;
}

const chromium = findChromium();
if (chromium === null) {
  console.error(
    `${PREFIX} chromium: FAILED - no Chromium found ($CHROMIUM, chromium, chromium-browser, google-chrome); install it with \`apt-get install -y chromium\` or set CHROMIUM=/path/to/chrome`,
  );
  process.exit(1);
}

const url = pathToFileURL(join(dir, "report.html")).href;
const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"];
const run = (extra) =>
  execFileSync(chromium, [...flags, ...extra, url], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 120_000,
  });
const dom = run(["--dump-dom"]);
run([`--screenshot=${screenshot}`, "--window-size=1280,4000"]);

const count = (pattern) => (dom.match(pattern) ?? []).length;
const checks = [];
const check = (name, pass, detail) => checks.push({ name, pass, detail });

const sections = [
  "metrics",
  "significance",
  "latency",
  "calibration",
  "wins",
  "ranked",
  "config",
  ...(results.baselines?.length ? ["baselines"] : []),
];
const missing = sections.filter((id) => !dom.includes(`<h2 id="${id}"`));
check(
  "sections",
  missing.length === 0,
  missing.length === 0 ? `${sections.length} sections rendered` : `missing ${missing.join(", ")}`,
);

const queryIds = Object.keys(results.queries);
const details = count(/<details id="q\d+">/g);
check("ranked lists", details === queryIds.length, `${details} collapsed query blocks for ${queryIds.length} queries`);

const rankings = results.rankings;
let expectedGold = 0;
for (const byQuery of Object.values(rankings.byVariant)) {
  for (const [queryId, ranking] of Object.entries(byQuery)) {
    const gold = new Set(rankings.gold[queryId] ?? []);
    expectedGold += ranking.top.filter((entry) => gold.has(entry.doc)).length;
  }
}
const goldCells = count(/<td class="gold">/g);
check(
  "gold marks",
  goldCells === expectedGold && goldCells > 0,
  `${goldCells} starred gold cells rendered, ${expectedGold} in results.json`,
);

const comparisons = results.significance?.comparisons ?? [];
const sigRows = dom.slice(dom.indexOf('<h2 id="significance"'), dom.indexOf('<h2 id="latency"'));
const pShown = comparisons.every((c) =>
  sigRows.includes(`${c.meanDifference >= 0 ? "+" : ""}${c.meanDifference.toFixed(4)}`),
);
check(
  "significance",
  comparisons.length > 0 && pShown,
  comparisons
    .map(
      (c) =>
        `${c.a} vs ${c.b}: Δ ${c.meanDifference.toFixed(4)}, p ${c.randomizationP.toFixed(4)} / ${c.tTestP.toFixed(4)}`,
    )
    .join("; "),
);

const latency = results.variants.map((v) => `${v.label} p50 ${v.latency?.p50Ms?.toFixed(2)} ms`);
const latencyShown = results.variants.every(
  (v) => v.latency && dom.includes(`<td>${v.label}</td><td>${v.latency.queries}</td>`),
);
check("latency", latencyShown, latency.join(", "));

const visibleText = dom.replace(/<style>[\s\S]*?<\/style>/, "").replace(/<[^>]+>/g, " ");
const bad = ["NaN", "undefined", "[object Object]"].filter((word) => visibleText.includes(word));
check(
  "no broken values",
  bad.length === 0,
  bad.length === 0 ? "no NaN, undefined or [object Object] in the text" : `found ${bad.join(", ")}`,
);

const bytes = readFileSync(join(dir, "report.html")).length;
check(
  "size",
  bytes < 5 * 1024 * 1024,
  `report.html ${(bytes / 1024 / 1024).toFixed(2)} MB, rendered DOM ${(dom.length / 1024 / 1024).toFixed(2)} MB`,
);

for (const { name, pass, detail } of checks) console.log(`${PREFIX} ${name}: ${pass ? "ok" : "FAILED"} - ${detail}`);
const failed = checks.filter((c) => !c.pass).length;
console.log(
  `${PREFIX} ${failed === 0 ? "passed" : `${failed} failed`}: ${url} in ${chromium}; screenshot ${screenshot}`,
);
process.exit(failed === 0 ? 0 : 1);
