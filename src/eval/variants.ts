import { LookupKnowledgeError } from "../errors.js";
import type { RetrievalOptions } from "../graph/options.js";

/** The retrieval configurations the harness compares, side by side in one run. */
export type VariantName = "L0" | "L1" | "L0+L1";

/** A variant: its label in reports and the retrieval options it changes. */
export interface Variant {
  label: string;
  description: string;
  options: Pick<RetrievalOptions, "l0" | "l1">;
}

export const VARIANTS: Record<VariantName, Variant> = {
  L0: { label: "L0 only", description: "keyword layer alone (FlexSearch candidates, BM25 ranking); L1 disabled", options: { l1: { enabled: false } } },
  L1: { label: "L1 only", description: "dense layer alone, no domain filter (L0 off)", options: { l0: { enabled: false } } },
  "L0+L1": { label: "L0+L1", description: "the default: L0 hints and candidates, L1 filtered by an unambiguous domain, fused", options: {} },
};

/** Variant names in display order. */
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/**
 * Parses `L0,L1,L0+L1` (labels such as "L0 only" work too, in any case); repeats are kept once.
 * @throws LookupKnowledgeError `INVALID_OPTION` for an unknown name or an empty list.
 */
export function parseVariants(list: string): VariantName[] {
  const names = list.split(",").map((item) => item.trim()).filter((item) => item.length > 0);
  const valid = `use a comma-separated list of ${VARIANT_NAMES.join(", ")}`;
  if (names.length === 0) throw new LookupKnowledgeError("INVALID_OPTION", `no variant given; ${valid}.`);
  const found = names.map((name) => {
    const variant = VARIANT_NAMES.find((key) => key.toLowerCase() === name.toLowerCase() || VARIANTS[key].label.toLowerCase() === name.toLowerCase());
    if (!variant) throw new LookupKnowledgeError("INVALID_OPTION", `unknown variant "${name}"; ${valid}.`);
    return variant;
  });
  return [...new Set(found)];
}

/** A file-name-safe form of a variant name: `L0+L1` → `L0-L1`. */
export function variantSlug(name: VariantName): string {
  return name.replace(/\+/g, "-");
}
