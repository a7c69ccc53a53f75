import { LINE_BREAK, showHidden } from "../tool/escape-text.js";
import type { LookupResult } from "../types.js";

/** Renders a lookup for a person at a terminal: summary, then each block with its source and text. */
export function renderResult(result: LookupResult): string {
  const { hints } = result;
  const lines = [
    `Query: ${result.query}`,
    `Layer: ${result.retrievalLayer} | L1: ${result.l1Status}${result.fallbackReason ? ` (fallback: ${result.fallbackReason})` : ""} | domain filter: ${result.domainFilter ?? "none"}`,
    `Relevance: ${result.relevance.level}${result.relevance.semanticSupport ? " (semantic support)" : ""}: ${result.relevance.reason}`,
    `Hints: domains [${hints.domains.join(", ")}] keywords [${hints.keywords.join(", ")}] titles [${hints.titles.join(", ")}] entities [${hints.entities.join(", ")}]`,
    "",
  ];
  if (result.evidence.length === 0) lines.push("No evidence found.");
  result.evidence.forEach((block, i) => {
    const score = block.score !== undefined ? `, score ${block.score.toFixed(2)}` : "";
    lines.push(`[${i + 1}] ${block.source} (${block.retrievalLayer}${score})`);
    if (block.breadcrumb) lines.push(`    ${block.breadcrumb.join(" > ")}`);
    lines.push(`    hits: ${block.hitReasons.join("; ")}`);
    lines.push(...block.content.split(LINE_BREAK).map((line) => `    | ${line}`));
    if (block.truncated) lines.push(`    [content cut: ${block.truncated.shownChars} of ${block.truncated.totalChars} characters shown]`);
    lines.push("");
  });
  // Corpus text must not drive the terminal (escape sequences) or start unmarked lines.
  return lines.flatMap((line) => line.split(LINE_BREAK).map(showHidden)).join("\n");
}
