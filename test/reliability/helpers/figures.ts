/**
 * Figures of the reliability suite: each scenario records what it tried and what it lost, one
 * JSON line per scenario, and the suite's global teardown prints them as the table the README
 * quotes. Tests assert the losses themselves; the figures only report what was measured.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the figures of the current run go (git-ignored, like every eval result). */
export const FIGURES_FILE = join(
  resolve(dirname(fileURLToPath(import.meta.url)), "../../.."),
  "eval/results/reliability/figures.jsonl",
);

/** What one scenario measured. Counts that do not apply are left out. */
export interface ReliabilityFigures {
  /** Short name of the scenario, e.g. "kill -9 during a re-index". */
  scenario: string;
  /** Hostile inputs tried: files, tool inputs, vectors. */
  inputsTried?: number;
  /** Faults injected: kills, failed writes, throwing or hanging collaborators. */
  faultsInjected?: number;
  /** Trace lines that were reported written but are missing or torn. */
  linesLost?: number;
  /** Indexes left unloadable (neither the old nor the new one). */
  indexesLost?: number;
  /** Requests a server received (or had on the wire) that got no answer: a reset, a dropped connection, an undocumented error. */
  requestsUnanswered?: number;
  /** Process crashes, hangs or uncaught errors. */
  crashes?: number;
  /** A scenario that could not run here says why; it is counted as skipped, never as passed. */
  skippedBecause?: string;
}

/** Appends one scenario's figures to {@link FIGURES_FILE}. */
export function recordFigures(figures: ReliabilityFigures): void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify(figures)}\n`);
}
