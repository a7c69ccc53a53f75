import { LookupKnowledgeError } from "../../errors.js";
import { sortRun } from "../metrics/rank-run.js";
import type { Run } from "../metrics/types.js";
import { shownValue } from "../../shown-value.js";

function assertToken(kind: string, value: string): void {
  if (value === "" || /\s/.test(value)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `a TREC run ${kind} must be non-empty and contain no whitespace, got ${shownValue(value)}.`,
    );
  }
}

/**
 * Writes a run in the TREC format that trec_eval and pytrec_eval read: one line
 * `qid Q0 docid rank score tag` per retrieved document, space-separated, ending with a newline.
 * Queries appear in the run's insertion order; within a query documents are ordered by `sortRun`
 * (score descending, ties by id descending, duplicates dropped, as `rankRun`), ranks start at 1
 * and at most `depth` documents are written. Scores are written with full precision so that
 * `parseTrecRun` reads back the same numbers.
 *
 * @param run Retrieved documents per query, in any order.
 * @param tag The run name in the last column; no whitespace.
 * @param depth Most documents written per query; a positive integer.
 * @throws LookupKnowledgeError (`INVALID_OPTION`) for an id or tag containing whitespace, a
 * non-finite score, or a bad depth.
 * @example
 * await writeFile("bm25.run", formatTrecRun(run, "bm25"));
 */
export function formatTrecRun(run: Run, tag: string, depth = 100): string {
  assertToken("tag", tag);
  if (!Number.isInteger(depth) || depth < 1) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `depth must be a positive integer, got ${String(depth)}.`,
    );
  }
  const lines: string[] = [];
  for (const [queryId, docs] of run) {
    assertToken("query id", queryId);
    sortRun(docs)
      .slice(0, depth)
      .forEach((doc, i) => {
        assertToken("document id", doc.docId);
        if (!Number.isFinite(doc.score)) {
          throw new LookupKnowledgeError(
            "INVALID_OPTION",
            `document "${doc.docId}" of query "${queryId}" has score ${String(doc.score)}; ` +
              "TREC runs need finite scores.",
          );
        }
        lines.push(`${queryId} Q0 ${doc.docId} ${i + 1} ${String(doc.score)} ${tag}`);
      });
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
