import { LookupKnowledgeError } from "../../errors.js";

/** What {@link lsaRefitNeeded} judges: the model's fit against the corpus as it is now. */
export interface LsaDriftInput {
  /** Documents of the corpus the model was fitted on (`LsaEmbeddings.fittedOn.documents`). */
  fittedDocumentCount: number;
  /** Documents of the corpus now. */
  currentDocumentCount: number;
  /** Documents added, changed or removed since the fit, each counted once (a changed document is one, not a removal and an addition). */
  changedSinceFit: number;
  /**
   * Share (0 to 1) of the current corpus's tokens, counted with multiplicity, whose term the
   * model does not know (`LsaEmbeddings.unknownTokenShare`).
   */
  unknownTermShare: number;
}

/** Thresholds of {@link lsaRefitNeeded}. */
export interface LsaDriftOptions {
  /** Refit once more documents than this share of the fitted count changed since the fit. @default 0.2 */
  maxChangedShare?: number;
  /** Refit once more than this share of the corpus's tokens is outside the model's vocabulary. @default 0.1 */
  maxUnknownTermShare?: number;
}

/** The answer of {@link lsaRefitNeeded}; `reason` is a sentence for logs and manifests. */
export interface LsaRefitDecision {
  refit: boolean;
  reason: string;
}

/** Defaults of {@link LsaDriftOptions}. */
export const LSA_DRIFT_DEFAULTS: Readonly<Required<LsaDriftOptions>> = {
  maxChangedShare: 0.2,
  maxUnknownTermShare: 0.1,
};

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `lsaRefitNeeded: ${name} must be a non-negative integer, got ${String(value)}.`,
    );
}

function checkShare(name: string, value: number): void {
  if (typeof value !== "number" || !(value >= 0 && value <= 1))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `lsaRefitNeeded: ${name} must be a number from 0 to 1, got ${String(value)}.`,
    );
}

/**
 * Whether an incremental re-index should refit the statistical embedder rather than fold the new
 * documents into the model it has. Folding in is what the model does for every query, so it stays
 * sound while the corpus resembles the one fitted; two things make it drift:
 *
 * 1. **Churn.** Refit when `changedSinceFit > maxChangedShare × fittedDocumentCount` (default:
 *    more than 20% of the fitted count added, changed or removed). The IDF and the latent
 *    directions describe the fitted corpus; past a fifth of it replaced, they describe a corpus
 *    that no longer exists.
 * 2. **New vocabulary.** Refit when `unknownTermShare > maxUnknownTermShare` (default: more than
 *    10% of the current corpus's tokens are terms the model does not know). Unknown terms
 *    contribute nothing to a vector, so documents about a new topic embed by their remaining words
 *    only and a query about it cannot find them.
 *
 * A model fitted on no documents is refitted as soon as there are documents; an empty corpus
 * never needs a refit. Pure: equal inputs give equal answers.
 * @throws LookupKnowledgeError `INVALID_OPTION` when a count is not a non-negative integer or a share is outside 0..1.
 * @example
 * const { refit, reason } = lsaRefitNeeded({ fittedDocumentCount: 5000, currentDocumentCount: 5400, changedSinceFit: 600, unknownTermShare: 0.02 });
 * // refit false: 600 of 5,000 is 12%, within 20%
 */
export function lsaRefitNeeded(input: LsaDriftInput, options: LsaDriftOptions = {}): LsaRefitDecision {
  const {
    fittedDocumentCount: fitted,
    currentDocumentCount: current,
    changedSinceFit: changed,
    unknownTermShare: unknown,
  } = input;
  checkCount("fittedDocumentCount", fitted);
  checkCount("currentDocumentCount", current);
  checkCount("changedSinceFit", changed);
  checkShare("unknownTermShare", unknown);
  const maxChanged = options.maxChangedShare ?? LSA_DRIFT_DEFAULTS.maxChangedShare;
  const maxUnknown = options.maxUnknownTermShare ?? LSA_DRIFT_DEFAULTS.maxUnknownTermShare;
  checkShare("maxChangedShare", maxChanged);
  checkShare("maxUnknownTermShare", maxUnknown);

  if (current === 0) return { refit: false, reason: "the corpus is empty, so there is nothing to fit" };
  if (fitted === 0)
    return { refit: true, reason: `the model was fitted on no documents and the corpus now has ${current}` };
  if (changed > maxChanged * fitted) {
    return {
      refit: true,
      reason: `${changed} documents changed since the fit, ${percent(changed / fitted)} of the ${fitted} fitted, above the ${percent(maxChanged)} limit`,
    };
  }
  if (unknown > maxUnknown) {
    return {
      refit: true,
      reason: `${percent(unknown)} of the corpus's tokens are outside the model's vocabulary, above the ${percent(maxUnknown)} limit`,
    };
  }
  return {
    refit: false,
    reason: `${changed} of ${fitted} documents changed since the fit (${percent(changed / fitted)}, limit ${percent(maxChanged)}) and ${percent(unknown)} of tokens are unknown (limit ${percent(maxUnknown)})`,
  };
}
