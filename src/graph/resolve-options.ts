import type { AccessOption } from "../access/access-scope.js";
import type { AccessControl } from "../access/chunk-access.js";
import { checkAccessOption, DEFAULT_ACCESS_TIMEOUT_MS } from "../access/resolve-scope.js";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import type { EvidenceCaps } from "./bound-evidence.js";
import { DEFAULT_L0_WEIGHT } from "../ranking/evidence.js";
import type { RetrievalOptions, RetrievalSource } from "./options.js";
import { DEFAULT_MAX_LIMIT } from "./lookup-schema.js";
import { RELEVANCE_THRESHOLDS, type RelevanceThresholds } from "../ranking/relevance.js";
import { shownJson } from "../shown-value.js";

/** Every retrieval setting, defaults applied and checked: what the nodes take. */
export interface RetrievalSettings {
  maxLimit: number;
  l0: { enabled: boolean; k: number };
  l1: { enabled: boolean; k: number; minScore: number; timeoutMs: number };
  fusion: { l0Weight: number };
  relevance: RelevanceThresholds;
  evidence: EvidenceCaps;
  /** The `access` option (null: unscoped) and how long its function may take. */
  access: { option: AccessOption | null; timeoutMs: number };
}

/** The documented defaults of {@link RetrievalOptions}, in one place. */
export const RETRIEVAL_DEFAULTS: Readonly<RetrievalSettings> = Object.freeze({
  maxLimit: DEFAULT_MAX_LIMIT,
  l0: { enabled: true, k: 20 },
  l1: { enabled: true, k: 20, minScore: 0.05, timeoutMs: 5000 },
  fusion: { l0Weight: DEFAULT_L0_WEIGHT },
  relevance: { ...RELEVANCE_THRESHOLDS },
  evidence: { maxBlockChars: 4000, maxTotalChars: 16_000 },
  access: { option: null, timeoutMs: DEFAULT_ACCESS_TIMEOUT_MS },
});

function number(name: string, value: unknown, fallback: number, min: number, max: number, integer = false): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== "number" ||
    Number.isNaN(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "an integer" : "a number";
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option ${name} must be ${kind} from ${min} to ${max}, got ${shownJson(value)}.`,
    );
  }
  return value;
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean")
    throw new LookupKnowledgeError("INVALID_OPTION", `option ${name} must be true or false, got ${shownJson(value)}.`);
  return value;
}

const isFunction = (value: unknown) => typeof value === "function";

/**
 * Checks that a knowledge base has what the graph calls: an L0 `search`, an L1 `search` or null,
 * a fingerprint. @throws LookupKnowledgeError `INVALID_OPTION`.
 */
export function checkRetrievalSource(source: unknown): RetrievalSource {
  const kb = source as Partial<Record<keyof RetrievalSource, unknown>> | null;
  const l0 = kb?.l0 as { search?: unknown } | null | undefined;
  const l1 = kb?.l1 as { search?: unknown } | null | undefined;
  if (
    typeof kb !== "object" ||
    kb === null ||
    !isFunction(l0?.search) ||
    !(l1 === null || isFunction(l1?.search)) ||
    typeof kb.fingerprint !== "string"
  ) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option knowledgeBase must be a KnowledgeBase (KnowledgeBase.build, load or fromChunks) or an object with l0, l1 and fingerprint.",
    );
  }
  return kb as RetrievalSource;
}

/**
 * Applies the documented defaults to the options and checks every value (pure).
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the first bad option and its range.
 */
export function resolveRetrievalOptions(
  options: Omit<RetrievalOptions, "knowledgeBase">,
  source?: RetrievalSource,
): RetrievalSettings {
  if (typeof options !== "object" || options === null)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "the retrieval options must be an object with at least knowledgeBase.",
    );
  try {
    return resolveReadable(options, calibratedDefaults(source?.calibration));
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("INVALID_OPTION", `the retrieval options cannot be read (${errorMessage(error)}).`, {
      cause: error,
    });
  }
}

/**
 * The defaults a knowledge base's calibration sets: its fusion weight and relevance thresholds
 * when they are numbers in range, else the built-in ones (a hand-made source has none).
 */
export function calibratedDefaults(
  calibration: RetrievalSource["calibration"],
): Pick<RetrievalSettings, "fusion" | "relevance"> {
  const d = RETRIEVAL_DEFAULTS;
  const inRange = (value: unknown, min: number, max: number): value is number =>
    typeof value === "number" && value >= min && value <= max;
  const relevance = { ...d.relevance };
  for (const key of Object.keys(relevance) as (keyof RelevanceThresholds)[]) {
    const value = calibration?.relevance?.[key];
    if (inRange(value, -1, 1)) relevance[key] = value;
  }
  // Each value is read once: a getter may answer differently the second time.
  const l0Weight: unknown = calibration?.l0Weight;
  return { fusion: { l0Weight: inRange(l0Weight, 0, 1) ? l0Weight : d.fusion.l0Weight }, relevance };
}

function resolveReadable(
  options: Omit<RetrievalOptions, "knowledgeBase">,
  calibrated: Pick<RetrievalSettings, "fusion" | "relevance">,
): RetrievalSettings {
  const d = { ...RETRIEVAL_DEFAULTS, ...calibrated };
  const relevance = options.relevance ?? {};
  const thresholds = Object.fromEntries(
    (Object.keys(d.relevance) as (keyof RelevanceThresholds)[]).map((key) => [
      key,
      number(`relevance.${key}`, relevance[key], d.relevance[key], -1, 1),
    ]),
  ) as unknown as RelevanceThresholds;
  return {
    maxLimit: number("maxLimit", options.maxLimit, d.maxLimit, 1, 1000, true),
    l0: {
      enabled: flag("l0.enabled", options.l0?.enabled, d.l0.enabled),
      k: number("l0.k", options.l0?.k, d.l0.k, 1, 10_000, true),
    },
    l1: {
      enabled: flag("l1.enabled", options.l1?.enabled, d.l1.enabled),
      k: number("l1.k", options.l1?.k, d.l1.k, 1, 10_000, true),
      minScore: number("l1.minScore", options.l1?.minScore, d.l1.minScore, -1, 1),
      timeoutMs: number("l1.timeoutMs", options.l1?.timeoutMs, d.l1.timeoutMs, 0, Number.POSITIVE_INFINITY),
    },
    fusion: { l0Weight: number("fusion.l0Weight", options.fusion?.l0Weight, d.fusion.l0Weight, 0, 1) },
    relevance: thresholds,
    evidence: {
      maxBlockChars: number(
        "evidence.maxBlockChars",
        options.evidence?.maxBlockChars,
        d.evidence.maxBlockChars,
        1,
        Number.MAX_SAFE_INTEGER,
        true,
      ),
      maxTotalChars: number(
        "evidence.maxTotalChars",
        options.evidence?.maxTotalChars,
        d.evidence.maxTotalChars,
        1,
        Number.MAX_SAFE_INTEGER,
        true,
      ),
    },
    access: {
      option: checkAccessOption(options.access) ?? null,
      timeoutMs: number("accessTimeoutMs", options.accessTimeoutMs, d.access.timeoutMs, 0, Number.POSITIVE_INFINITY),
    },
  };
}

/**
 * The access control that enforces `settings.access` on `source`: its labels when a scope is
 * configured, null for an unscoped tool or graph (filters then come from the domain alone, when
 * the source has labels to build them from).
 * @throws LookupKnowledgeError `INVALID_OPTION` when `access` is set on a source that cannot enforce it.
 */
export function accessControlOf(source: RetrievalSource, settings: RetrievalSettings): AccessControl | null {
  const control = source.access;
  const usable =
    typeof control === "object" &&
    control !== null &&
    typeof control.filter === "function" &&
    typeof control.domainsFor === "function" &&
    typeof control.rowKeysFor === "function";
  if (settings.access.option !== null && !usable) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "option access needs a knowledge base that can enforce it (a KnowledgeBase, whose access labels come from frontmatter `access`); this source has no access control.",
    );
  }
  return usable ? control : null;
}
