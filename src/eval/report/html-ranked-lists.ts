import { escapeHtml } from "./html-escape.js";
import type { EvalReport } from "./report-model.js";
import type { RankedEntry } from "./report-sections.js";

/** Characters of a title shown inside a ranked list (the gold line shows the whole cut title). */
const CELL_TITLE_CHARS = 60;

const short = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The line after a cut gold list: how many relevant documents it leaves out. */
function moreGold(total: number | undefined, listed: number): string {
  return total !== undefined && total > listed ? `<li>and ${total - listed} more judged-relevant documents, not listed</li>` : "";
}

function cell(entry: RankedEntry | undefined, gold: ReadonlySet<string>, titles: Record<string, string>): string {
  if (!entry) return "<td></td>";
  const isGold = gold.has(entry.doc);
  const title = titles[entry.doc] ?? "";
  return `<td${isGold ? ' class="gold"' : ""}>${isGold ? '<span class="mark" title="judged relevant">★</span> ' : ""}<code>${escapeHtml(entry.doc)}</code> ${escapeHtml(short(title, CELL_TITLE_CHARS))}<br><small>${escapeHtml(entry.reasons)}</small></td>`;
}

/**
 * Per-query ranked lists, one collapsed `<details>` per query: each variant's first documents side
 * by side, gold (judged relevant) documents starred, each with its hit reasons, and where each gold
 * document ranked in every variant's whole run.
 */
export function renderRankedLists(report: EvalReport): string {
  const r = report.rankings;
  if (!r) return "";
  const variants = report.variants.filter((variant) => r.byVariant[variant.name] !== undefined);
  const queryIds = Object.keys(report.queries).filter((id) => variants.some((variant) => r.byVariant[variant.name][id] !== undefined));
  const blocks = queryIds.map((queryId, index) => {
    const gold = new Set(r.gold[queryId] ?? []);
    const scores = variants.map((v) => `${escapeHtml(v.label)} ${(v.perQuery[queryId]?.[report.primaryMetric] ?? 0).toFixed(2)}`).join(" · ");
    const goldLines = [...gold]
      .map((doc) => {
        const ranks = variants.map((v) => `${escapeHtml(v.label)} ${r.byVariant[v.name][queryId]?.goldRanks[doc] ?? "—"}`).join(", ");
        return `<li><span class="mark">★</span> <code>${escapeHtml(doc)}</code> ${escapeHtml(r.titles[doc] ?? "")} <small>(rank: ${ranks})</small></li>`;
      })
      .join("");
    const lists = variants.map((v) => r.byVariant[v.name][queryId]?.top ?? []);
    const rows = Array.from({ length: Math.max(0, ...lists.map((list) => list.length)) }, (_, i) => `<tr><td>${i + 1}</td>${lists.map((list) => cell(list[i], gold, r.titles)).join("")}</tr>`).join("");
    return `<details id="q${index}"><summary><code>${escapeHtml(queryId)}</code> ${escapeHtml(report.queries[queryId] ?? "")} <span class="scores">${escapeHtml(report.primaryMetric)}: ${scores}</span></summary>
<ul class="goldlist">${goldLines || "<li>no judged-relevant document</li>"}${moreGold(r.goldTotals?.[queryId], gold.size)}</ul><table class="ranked"><tr><th>#</th>${variants.map((v) => `<th>${escapeHtml(v.label)}</th>`).join("")}</tr>${rows}</table></details>`;
  });
  return `<h2 id="ranked">Per-query ranked lists (top ${r.shown})</h2><p class="note">One line per query (click to expand): the query, then each variant's ${escapeHtml(report.primaryMetric)}. Inside: the judged-relevant documents (★) with their rank in each variant's run (— when not retrieved), then each variant's first ${r.shown} documents with their hit reasons.</p>\n${blocks.join("\n")}`;
}
