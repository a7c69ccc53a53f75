import { LookupKnowledgeError } from "../../errors.js";
import type { RankedDoc } from "./types.js";

/**
 * Compares two strings by Unicode code point, which is the order C's `strcmp` gives their UTF-8
 * bytes. Plain `<` compares UTF-16 code units and would disagree for characters above U+FFFF.
 */
function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const diff = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
}

/**
 * Sort order of a run: score descending, then document id descending (by code point). This is
 * trec_eval's `comp_sim_docno` (`strcmp(p2->docno, p1->docno)`), so tied documents land in the
 * same order here as in trec_eval, pytrec_eval and BEIR, and the array order the retriever
 * happened to produce never matters.
 */
export function compareRankedDocs(a: RankedDoc, b: RankedDoc): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareCodePoints(b.docId, a.docId);
}

/**
 * Normalises one query's retrieved documents: sorted by {@link compareRankedDocs} (score
 * descending, ties by document id descending, as trec_eval does), each document id kept once, at
 * its best position. trec_eval rejects a run with duplicates outright and BEIR's dict keeps
 * whichever score was written last; keeping the best score is the choice that does not depend on
 * input order.
 *
 * @param docs Retrieved documents in any order; not modified.
 * @returns The documents, best first, without repeated ids.
 * @throws LookupKnowledgeError (`INVALID_OPTION`) when a score is NaN, which has no rank.
 */
export function sortRun(docs: readonly RankedDoc[]): RankedDoc[] {
  for (const doc of docs) {
    if (Number.isNaN(doc.score)) {
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `document "${doc.docId}" has a NaN score; give every retrieved document a numeric score.`,
      );
    }
  }
  const seen = new Set<string>();
  const sorted: RankedDoc[] = [];
  for (const doc of [...docs].sort(compareRankedDocs)) {
    if (seen.has(doc.docId)) continue;
    seen.add(doc.docId);
    sorted.push(doc);
  }
  return sorted;
}

/**
 * The ranking the metrics consume: the document ids of {@link sortRun}, best first, each once.
 *
 * @param docs Retrieved documents in any order; not modified.
 * @throws LookupKnowledgeError (`INVALID_OPTION`) when a score is NaN.
 * @example
 * rankRun([{ docId: "a", score: 1 }, { docId: "b", score: 1 }, { docId: "c", score: 2 }]); // ["c", "b", "a"]
 */
export function rankRun(docs: readonly RankedDoc[]): string[] {
  return sortRun(docs).map((doc) => doc.docId);
}
