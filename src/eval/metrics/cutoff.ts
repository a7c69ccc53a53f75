import { LookupKnowledgeError } from "../../errors.js";

/**
 * Throws unless `k` is a positive integer. Every `@k` metric calls this so that a cutoff of 0,
 * a fraction or NaN fails loudly instead of quietly scoring 0.
 */
export function assertCutoff(k: number): void {
  if (!Number.isInteger(k) || k < 1) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `metric cutoff k must be a positive integer, got ${String(k)}.`,
    );
  }
}
