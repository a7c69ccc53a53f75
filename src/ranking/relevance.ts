import type { L1Status, RelevanceAssessment } from "../types.js";
import type { LayeredEvidence } from "./evidence.js";

/**
 * Thresholds of the relevance judgement. A knowledge base calibrates them for its corpus and
 * embedder at index time (`KnowledgeBase.calibration`); these are the fallbacks.
 */
export interface RelevanceThresholds {
  /** Coverage from which, with dense support, the top block is a `high` match. @default 0.6 */
  strongCoverage: number;
  /** Coverage from which the top block plausibly answers (`medium`). @default 0.35 */
  partialCoverage: number;
  /** Similarity from which the dense layer supports the top block. @default 0.3 */
  semanticSupport: number;
  /**
   * Similarity from which the top block plausibly answers (`medium`) even with little word
   * overlap: a paraphrase. With this and `semanticSupport` both at 1, similarities are not used at
   * all (what an uncalibrated corpus gets: see `CorpusCalibration`).
   * @default 0.7
   */
  strongSimilarity: number;
}

/**
 * Fallback thresholds, for a knowledge base without a calibration (too small, calibration off, a
 * hand-made source). Coverage is the IDF-weighted share of the query's terms found in the top
 * block (a rare term the block lacks costs most); similarity is L1's cosine on the scale of the
 * statistical embedder.
 */
export const RELEVANCE_THRESHOLDS: Readonly<RelevanceThresholds> = {
  /** Coverage from which, with dense support, the top block is a `high` match. */
  strongCoverage: 0.6,
  /** Coverage from which the top block plausibly answers (`medium`). */
  partialCoverage: 0.35,
  /** Similarity from which the dense layer supports the top block. */
  semanticSupport: 0.3,
  /** Similarity from which the top block plausibly answers (`medium`) with little word overlap. */
  strongSimilarity: 0.7,
};

/**
 * Judges how well the top block answers the query. The levels promise (measured on the golden
 * set's held-out half, see docs/tool-output.md, "Relevance"):
 * - `high`: the block holds the query's distinctive terms (coverage ≥ `strongCoverage`) and the
 *   dense layer found it close (similarity ≥ `semanticSupport`): use it, citing the source.
 * - `medium`: the block plausibly answers: it holds a good share of the query's terms (coverage
 *   ≥ `partialCoverage`) or is as close as a right answer usually is (similarity ≥
 *   `strongSimilarity`). Check it against the question before relying on it.
 * - `low`: something matched, but no more than what unrelated blocks of this corpus reach: the
 *   blocks may answer in other words, or the corpus may not cover the question. Check them; if
 *   they do not answer, say the knowledge base does not cover it.
 * - `none`: nothing matched.
 * Similarity counts only when L1 answered and returned the top block itself.
 */
export function assessRelevance(
  evidence: readonly LayeredEvidence[],
  l1Status: L1Status | null,
  thresholds: RelevanceThresholds = RELEVANCE_THRESHOLDS,
): RelevanceAssessment {
  const top = evidence[0];
  if (!top) return { level: "none", semanticSupport: false, reason: "No evidence matched the query." };
  const t = thresholds;
  const coverage = top.coverage ?? 0;
  const similarityUsed = t.strongSimilarity < 1 || t.semanticSupport < 1;
  const similarity = l1Status === "ok" && similarityUsed ? top.similarity : undefined;
  const semanticSupport = similarity !== undefined && similarity >= t.semanticSupport;
  const terms = `the top block has ${Math.round(coverage * 100)}% of the query's term weight`;
  const sim =
    similarity !== undefined
      ? `, similarity ${similarity.toFixed(2)}`
      : !similarityUsed
        ? ", similarity not used (not calibrated for this corpus)"
        : l1Status === "ok"
          ? ", not among the dense layer's nearest"
          : `, dense layer ${l1Status ?? "not run"}`;

  if (coverage >= t.strongCoverage && semanticSupport) {
    return { level: "high", semanticSupport, reason: `Strong match: ${terms}${sim}.` };
  }
  if (coverage >= t.partialCoverage) {
    return {
      level: "medium",
      semanticSupport,
      reason: `Plausible match: ${terms}${sim}; check it against the question.`,
    };
  }
  if (similarity !== undefined && similarity >= t.strongSimilarity) {
    return {
      level: "medium",
      semanticSupport,
      reason: `Plausible paraphrase: ${terms}${sim}; check it against the question.`,
    };
  }
  return {
    level: "low",
    semanticSupport,
    reason: `Uncertain match: ${terms}${sim}, no more than unrelated blocks of this corpus reach.`,
  };
}
