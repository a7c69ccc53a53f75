import type { L1Status, RelevanceAssessment } from "../types.js";
import type { LayeredEvidence } from "./state.js";

/** Thresholds of the relevance assessment (see {@link RELEVANCE_THRESHOLDS}). */
export interface RelevanceThresholds {
  /** Coverage at or above which the block matches the query's distinctive terms. @default 0.6 */
  strongCoverage: number;
  /** Coverage below which lexical evidence is too thin to count at all. @default 0.35 */
  partialCoverage: number;
  /** Similarity at or above which the dense layer supports the block. @default 0.3 */
  semanticSupport: number;
  /** Similarity at or above which partial coverage is still a medium match (a paraphrase). @default 0.7 */
  strongSimilarity: number;
}

/**
 * Default thresholds. Coverage is the IDF-weighted share of the query's terms found in the top
 * block (a rare term the block lacks costs most); similarity is L1's cosine, on the scale of
 * the default statistical embedder (other embeddings have other scales: set `relevance` in the
 * options). Chosen on the golden set's answerable and no-answer questions.
 */
export const RELEVANCE_THRESHOLDS: Readonly<RelevanceThresholds> = {
  /** Coverage at or above which the block matches the query's distinctive terms. */
  strongCoverage: 0.6,
  /** Coverage below which lexical evidence is too thin to count at all. */
  partialCoverage: 0.35,
  /** Similarity at or above which the dense layer supports the block. */
  semanticSupport: 0.3,
  /** Similarity at or above which partial coverage is still a medium match (a paraphrase). */
  strongSimilarity: 0.7,
};

/**
 * Judges how well the top evidence answers the query: `high` when it covers the query's
 * distinctive terms and the dense layer agrees, `medium` for strong terms alone or a close
 * paraphrase, `low` otherwise. Semantic support is claimed only when L1 answered and found the
 * top block itself with enough similarity.
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
  const similarity = top.similarity;
  const semanticSupport = l1Status === "ok" && similarity !== undefined && similarity >= t.semanticSupport;
  const terms = `${Math.round(coverage * 100)}% of the query's term weight`;
  const sim = similarity !== undefined ? `, similarity ${similarity.toFixed(2)}` : "";

  if (coverage >= t.strongCoverage && semanticSupport) {
    return { level: "high", semanticSupport, reason: `The top block has ${terms}${sim}, and the dense layer supports it.` };
  }
  if (coverage >= t.strongCoverage) {
    const why = l1Status === "ok" ? "the dense layer does not support it" : `the dense layer did not answer (${l1Status ?? "not run"})`;
    return { level: "medium", semanticSupport, reason: `Keyword match with ${terms}${sim}; ${why}.` };
  }
  if (coverage >= t.partialCoverage && similarity !== undefined && similarity >= t.strongSimilarity && l1Status === "ok") {
    return { level: "medium", semanticSupport, reason: `Close paraphrase: ${terms}${sim}.` };
  }
  return { level: "low", semanticSupport, reason: `Weak match: ${terms}${sim}; the knowledge base may not cover this question.` };
}
