import type { L1Status, RelevanceAssessment } from "../types.js";
import type { LayeredEvidence } from "./state.js";

/**
 * Thresholds of the relevance assessment. Query-term coverage comes from L0, similarity from L1;
 * a short-field hint (title, keyword, alias, entity) on the top block is strong lexical evidence.
 */
export const RELEVANCE_THRESHOLDS = {
  /** Coverage at or above which lexical evidence is strong. */
  strongCoverage: 0.6,
  /** Coverage below which lexical evidence is weak. */
  weakCoverage: 0.35,
  /** Cosine similarity at or above which L1 support counts as semantic support. */
  semanticSimilarity: 0.3,
} as const;

const HINT_REASON = /^L0:(title|alias|keyword|entity):/;

/**
 * Judges how well the top evidence answers the query. Semantic support is claimed only when L1
 * answered and found the top block itself; L0-only answers are at most `medium`.
 */
export function assessRelevance(evidence: readonly LayeredEvidence[], l1Status: L1Status | null): RelevanceAssessment {
  const top = evidence[0];
  if (!top) return { level: "none", semanticSupport: false, reason: "No evidence matched the query." };
  const t = RELEVANCE_THRESHOLDS;
  const coverage = top.coverage ?? 0;
  const similarity = top.similarity;
  const hinted = top.hitReasons.some((reason) => HINT_REASON.test(reason));
  const semanticSupport = l1Status === "ok" && similarity !== undefined && similarity >= t.semanticSimilarity;
  const lexicalStrong = coverage >= t.strongCoverage || (hinted && coverage >= t.weakCoverage);
  const lexicalWeak = coverage < t.weakCoverage && !hinted;
  const pct = `${Math.round(coverage * 100)}% of query terms`;
  const sim = similarity !== undefined ? `, similarity ${similarity.toFixed(2)}` : "";

  if (semanticSupport && lexicalStrong) {
    return { level: "high", semanticSupport, reason: `Top block found by both layers: ${pct}${sim}.` };
  }
  if (semanticSupport && !lexicalWeak) {
    return { level: "medium", semanticSupport, reason: `Dense match with partial term overlap: ${pct}${sim}.` };
  }
  if (!semanticSupport && lexicalStrong) {
    const why = l1Status === "ok" ? "the dense layer's similarity is weak" : `the dense layer did not answer (${l1Status ?? "not run"})`;
    return { level: "medium", semanticSupport, reason: `Keyword evidence only (${pct}${sim}); ${why}.` };
  }
  return { level: "low", semanticSupport, reason: `Weak evidence: ${pct}${sim}; the knowledge base may not cover this question.` };
}
