import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import type { FallbackReason, L1Status } from "../../types.js";
import { isFailure, readCase } from "../promptfoo/golden-case.js";

const EXPECTED: Record<L1Status, FallbackReason> = { ok: null, empty: "l1_empty", error: "l1_error", disabled: "l1_disabled", unavailable: "l1_unavailable" };

/** The fallback reason matches what happened to L1, L1 is disabled exactly in the `L0 only` variant, and it never errors on the sample corpus. */
export default function fallbackReason(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { artifact, metadata } = graded;
  const problems: string[] = [];
  if (artifact.fallbackReason !== EXPECTED[artifact.l1Status]) problems.push(`fallback ${artifact.fallbackReason} for L1 status ${artifact.l1Status}`);
  if ((metadata.variant === "L0") !== (artifact.l1Status === "disabled")) problems.push(`L1 status ${artifact.l1Status} in variant ${metadata.variant}`);
  if (artifact.l1Status === "error" || artifact.l1Status === "unavailable") problems.push(`L1 ${artifact.l1Status} on the sample corpus`);
  const pass = problems.length === 0;
  return { pass, score: pass ? 1 : 0, reason: pass ? `L1 ${artifact.l1Status}, fallback ${artifact.fallbackReason}` : problems.join("; "), namedScores: { fallback_correct: pass ? 1 : 0 } };
}
