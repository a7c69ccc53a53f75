import { LINE_BREAK, showHidden } from "../tool/escape-text.js";
import type { LookupResult } from "../types.js";

/** One terminal line: line breaks and other whitespace runs become one space. */
const flat = (text: string) => text.replace(/[\s\u0085]+/gu, " ");

/**
 * Renders a lookup for a person at a terminal: summary, then each block with its source and text.
 * Corpus text never drives the terminal (escape sequences are shown as `<U+…>`), and only content
 * spans lines, each marked with `| `.
 */
export function renderResult(result: LookupResult): string {
  const hints = {
    domains: result.hints.domains.map(flat),
    keywords: result.hints.keywords.map(flat),
    titles: result.hints.titles.map(flat),
    entities: result.hints.entities.map(flat),
  };
  const lines = [
    `Query: ${flat(result.query)}`,
    `Layer: ${result.retrievalLayer} | L1: ${result.l1Status}${result.fallbackReason ? ` (fallback: ${result.fallbackReason})` : ""} | domain filter: ${flat(result.domainFilter ?? "none")}`,
    `Relevance: ${result.relevance.level}${result.relevance.semanticSupport ? " (semantic support)" : ""}: ${result.relevance.reason}`,
    `Hints: domains [${hints.domains.join(", ")}] keywords [${hints.keywords.join(", ")}] titles [${hints.titles.join(", ")}] entities [${hints.entities.join(", ")}]`,
    "",
  ];
  if (result.evidence.length === 0) lines.push("No evidence found.");
  result.evidence.forEach((block, i) => {
    const terms = Number.isFinite(block.termCoverage) ? `, query terms ${Math.round(block.termCoverage! * 100)}%` : "";
    const similarity = Number.isFinite(block.similarity) ? `, similarity ${block.similarity!.toFixed(2)}` : "";
    lines.push(`[${i + 1}] ${flat(block.source)} (${block.retrievalLayer}${terms}${similarity})`);
    if (block.breadcrumb) lines.push(`    ${block.breadcrumb.map(flat).join(" > ")}`);
    lines.push(`    hits: ${flat(block.hitReasons.join("; "))}`);
    lines.push(...block.content.split(LINE_BREAK).map((line) => `    | ${line}`));
    if (block.truncated)
      lines.push(`    [content cut: ${block.truncated.shownChars} of ${block.truncated.totalChars} characters shown]`);
    lines.push("");
  });
  return lines.map(showHidden).join("\n");
}
