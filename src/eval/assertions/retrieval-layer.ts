import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import type { RetrievalLayer } from "../../types.js";
import { isFailure, readCase } from "../promptfoo/golden-case.js";

const ALLOWED: Record<string, RetrievalLayer[]> = { L0: ["L0", "none"], L1: ["L1", "none"], "L0+L1": ["L0+L1", "L0", "L1", "none"] };

/**
 * The recorded layer is one the variant can produce, and it agrees with the evidence: every
 * layer whose hit reasons appear is named (a named layer may have contributed candidates that
 * did not make the cut), `none` exactly when there is no evidence, and L1 only when L1 answered.
 */
export default function retrievalLayer(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { artifact, metadata } = graded;
  const layer = artifact.retrievalLayer;
  const problems: string[] = [];
  if (!ALLOWED[metadata.variant].includes(layer)) problems.push(`variant ${metadata.variant} cannot produce layer ${layer}`);
  const reasons = artifact.evidence.flatMap((block) => block.hitReasons);
  const l0Seen = reasons.some((reason) => reason.startsWith("L0:"));
  const l1Seen = reasons.some((reason) => reason.startsWith("L1:"));
  if ((layer === "none") !== (artifact.evidence.length === 0)) problems.push(`layer ${layer} with ${artifact.evidence.length} evidence blocks`);
  if (l1Seen && !layer.includes("L1")) problems.push(`L1 evidence but layer ${layer}`);
  if (l0Seen && !layer.includes("L0")) problems.push(`L0 evidence but layer ${layer}`);
  if (layer.includes("L1") && artifact.l1Status !== "ok") problems.push(`layer ${layer} while L1 status is ${artifact.l1Status}`);
  const pass = problems.length === 0;
  return { pass, score: pass ? 1 : 0, reason: pass ? `layer ${layer} fits the evidence` : problems.join("; "), namedScores: { layer_consistent: pass ? 1 : 0 } };
}
