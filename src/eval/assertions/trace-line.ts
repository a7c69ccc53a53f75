import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { CONTENT_PREVIEW_CHARS } from "../../trace/trace-record.js";
import { isFailure, readCase } from "../promptfoo/golden-case.js";

/** Exactly one trace line per call, for this invocation, with previews of at most 200 characters and no block's full content. */
export default function traceLine(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { artifact, metadata } = graded;
  const problems: string[] = [];
  if (!Array.isArray(metadata.traceLines)) return { pass: false, score: 0, reason: "the provider returned no trace lines in metadata" };
  const lines = metadata.traceLines;
  if (!artifact.traceWritten) problems.push("traceWritten is false");
  if (lines.length !== 1) problems.push(`${lines.length} trace lines for invocation ${artifact.invocationId}`);
  const line = lines[0];
  if (line) {
    if (line.type !== "tool_invocation" || line.tool_name !== "lookup_knowledge") problems.push("not a lookup_knowledge tool_invocation record");
    if (line.invocation_id !== artifact.invocationId) problems.push(`the line is for invocation ${line.invocation_id}, not ${artifact.invocationId}`);
    if (line.evidence_count !== artifact.evidenceCount) problems.push("evidence_count differs from the artifact");
    if ((line.preview_chars ?? []).some((chars) => chars > CONTENT_PREVIEW_CHARS)) problems.push("a content_preview is longer than 200 characters");
    const leaked = line.full_content_sources ?? [];
    if (leaked.length > 0) problems.push(`full content of ${leaked.join(", ")} is in the trace`);
  }
  const pass = problems.length === 0;
  return { pass, score: pass ? 1 : 0, reason: pass ? "one whole trace line, previews only" : problems.join("; "), namedScores: { trace_ok: pass ? 1 : 0 } };
}
