import { RELEVANCE_THRESHOLDS, type RelevanceThresholds } from "../ranking/relevance.js";
import { DEFAULT_L0_WEIGHT } from "../ranking/evidence.js";

/** Quantiles of a signal over the pseudo-queries (nearest rank, rounded to 4 decimals). */
export interface SignalQuantiles {
  /** 25th percentile. */
  p25: number;
  /** Median. */
  p50: number;
  /** 85th percentile. */
  p85: number;
  /** 95th percentile. */
  p95: number;
}

/**
 * What index-time calibration found for this corpus and embedder, saved in the manifest and
 * used by the retrieval graph unless its options override a value.
 */
export interface CorpusCalibration {
  /** `measured`: derived from pseudo-queries; `defaults`: the built-in values, for the reason in `note`. */
  source: "measured" | "defaults";
  /** Why the defaults are used, or what to know about the measurement; null when nothing needs saying. */
  note: string | null;
  /** Pseudo-queries measured. */
  pseudoQueries: number;
  /** Weight of L0 in the fused score. */
  l0Weight: number;
  /** Thresholds of the relevance judgement. */
  relevance: RelevanceThresholds;
  /** The measurements behind them; null with the defaults. */
  measured: CalibrationMeasurements | null;
}

/** The figures a calibration is derived from, for reports. */
export interface CalibrationMeasurements {
  /** Mean reciprocal rank at 10 of the held-out targets: L0 alone, L1 alone (null without L1), fused at the chosen weight. */
  mrr: { l0: number; l1: number | null; fused: number };
  /** IDF-weighted query coverage of the target (a right answer) and of the best block outside its file (no answer). */
  coverage: { target: SignalQuantiles; background: SignalQuantiles };
  /** Cosine similarity of the same two; null without L1. */
  similarity: { target: SignalQuantiles; background: SignalQuantiles } | null;
}

/** The calibration of an index that has none (too small, turned off, or saved before calibration existed). */
export function defaultCalibration(note: string): CorpusCalibration {
  return {
    source: "defaults",
    note,
    pseudoQueries: 0,
    l0Weight: DEFAULT_L0_WEIGHT,
    relevance: { ...RELEVANCE_THRESHOLDS },
    measured: null,
  };
}

const figure = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value.toFixed(3) : "-");
/** Longest note a description shows (a saved manifest is read back from disk). */
const MAX_NOTE_CHARS = 300;
const shown = (note: string | null) =>
  note === null ? null : note.replace(/[\p{Cc}\p{Cf}]/gu, " ").slice(0, MAX_NOTE_CHARS);

/** One line for CLI output and eval reports; control characters in the note are blanked. */
export function describeCalibration(calibration: CorpusCalibration): string {
  const r = calibration.relevance;
  const values = `l0Weight ${calibration.l0Weight.toFixed(2)}, coverage ${r.partialCoverage.toFixed(2)}/${r.strongCoverage.toFixed(2)}, similarity ${r.semanticSupport.toFixed(2)}/${r.strongSimilarity.toFixed(2)}`;
  const note = shown(calibration.note);
  if (calibration.source === "defaults") return `calibration: defaults (${note ?? "not measured"}): ${values}`;
  const mrr = calibration.measured?.mrr;
  const mrrText = mrr
    ? `; pseudo-query MRR@10 L0 ${figure(mrr.l0)}, L1 ${figure(mrr.l1)}, fused ${figure(mrr.fused)}`
    : "";
  return `calibration: measured on ${calibration.pseudoQueries} pseudo-queries: ${values}${mrrText}${note ? ` (${note})` : ""}`;
}
