import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { isFailure, readCase } from "../promptfoo/golden-case.js";
import { normalizeDomain } from "../../text/normalize-domain.js";

/**
 * The L1 domain filter is applied exactly when there is one domain: the forced one, else the
 * hints' single domain; never with zero or several. Every L1 block carries that filter. Also
 * scores whether the hints found the case's expected domain (`domain_hint_match`).
 */
export default function domainFilter(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { artifact, vars } = graded;
  const forced = normalizeDomain(vars.domain);
  const hinted = artifact.hints.domains.filter((domain) => domain.trim().length > 0);
  const expected = forced ?? (hinted.length === 1 ? hinted[0] : null);
  const problems: string[] = [];
  if (artifact.domainFilter !== expected) problems.push(`filter ${artifact.domainFilter} but expected ${expected} (hint domains: [${hinted.join(", ")}])`);
  if (artifact.domainFilter !== null) {
    const unfiltered = artifact.evidence.filter((block) => block.hitReasons.some((r) => r.startsWith("L1:")) && !block.hitReasons.includes(`L1:domain_filter:${artifact.domainFilter}`));
    if (unfiltered.length > 0) problems.push(`${unfiltered.length} L1 blocks without the filter`);
  }
  const pass = problems.length === 0;
  const namedScores: Record<string, number> = { domain_filter_correct: pass ? 1 : 0 };
  if (vars.expected_domain && !forced && graded.metadata.variant !== "L1") namedScores.domain_hint_match = artifact.domainFilter === vars.expected_domain ? 1 : 0;
  return { pass, score: pass ? 1 : 0, reason: pass ? `filter ${artifact.domainFilter ?? "none"} as the hints require` : problems.join("; "), namedScores };
}
