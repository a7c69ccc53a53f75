/**
 * Inputs for the trace-bound tests: lookup results of any size, a seeded generator of hostile
 * strings, and checks that a serialised line is valid UTF-8 without a split surrogate pair.
 */
import type { TraceContext } from "../../src/trace/trace-record.js";
import type { EvidenceBlock, LookupResult } from "../../src/types.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";

/** The bound the trace promises, written out so that the tests do not trust the constant. */
export const LIMIT_BYTES = 64 * 1024;

/** Bytes of a record's JSONL line, newline included. */
export function lineBytes(record: unknown): number {
  return Buffer.byteLength(`${JSON.stringify(record)}\n`, "utf8");
}

/** True when `text` holds a high surrogate without its low half, or a low one without its high half. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** True when the UTF-8 bytes of `line` decode strictly back to `line`. */
export function isValidUtf8Line(line: string): boolean {
  try {
    return (
      new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(line, "utf8")) === line && !hasLoneSurrogate(line)
    );
  } catch {
    return false;
  }
}

/** Every string anywhere in a JSON value. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** A block of evidence with the given fields. */
export function block(fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return {
    source: "ops/restart.md#drain",
    title: "Restart",
    retrievalLayer: "L0+L1",
    content: "Drain the node first.",
    hitReasons: ["L0:keyword:drain"],
    score: 0.5,
    ...fields,
  };
}

/** A lookup result with the given evidence and hints. */
export function lookupResult(
  evidence: EvidenceBlock[],
  hints: Partial<LookupResult["hints"]> = {},
  query = "how to drain a node",
): LookupResult {
  return {
    invocationId: "inv-huge",
    query,
    retrievalLayer: "L0+L1",
    hints: { titles: [], keywords: [], domains: [], entities: [], ...hints },
    domainFilter: null,
    l1Status: "ok",
    fallbackReason: null,
    relevance: { level: "high", semanticSupport: true, reason: "both layers" },
    evidence,
    primary: evidence[0] ?? null,
    supplements: evidence.slice(1),
    candidateCount: evidence.length + 3,
    evidenceCount: evidence.length,
    contentTruncated: false,
    traceWritten: false,
  };
}

/** The context of a trace record for `query`. */
export function traceContext(query = "how to drain a node", l1Error: string | null = null): TraceContext {
  return {
    toolName: "lookup_knowledge",
    startedAt: 0,
    durationMs: 1,
    input: { query, domain: null, limit: 20 },
    corpusFingerprint: "fp-1",
    l1CandidateCount: 3,
    l1Error,
    timings: { l0Ms: 0.25, l1Ms: 0.5, mergeMs: 0.125, totalMs: 1 },
  };
}

/** A seeded PRNG (mulberry32), so a failing generated case can be replayed by its seed. */
export const seededRandom = mulberry32;

/** Alphabets of hostile text: JSON escapes (6 bytes a character), 2-4 byte UTF-8, emoji pairs. */
const ALPHABETS = ["abc xyz ", '\u0001\u001f"\\\n\t', "é漢字ß", "😀👍🏽", "\u2028\u2029\u0085"];

/** Generates strings and counts for property-style tests, from one seed. */
export function hostileGenerator(seed: number) {
  const random = seededRandom(seed);
  const int = (max: number) => Math.floor(random() * (max + 1));
  /** Mostly short, sometimes huge: lengths spread over `orders` orders of magnitude (up to 1 M). */
  const length = (orders: number) => Math.floor(10 ** (random() * orders));
  const text = (withLoneSurrogates = false, orders = 6) => {
    const alphabet = ALPHABETS[int(ALPHABETS.length - 1)];
    const unit = Array.from(alphabet);
    // A plain loop: `Array.from({ length: 64 }, pick)` takes the generic array-like path, and the
    // property tests draw millions of these pieces.
    const piece: string[] = [];
    for (let i = 0; i < 64; i++) piece.push(unit[int(unit.length - 1)]);
    if (withLoneSurrogates) piece.push("\uD800", "x", "\uDC00");
    const units = length(orders);
    const whole = piece.join("");
    const cut = whole.repeat(Math.ceil(units / whole.length)).slice(0, units);
    // Never end inside a pair, so that only the lone surrogates asked for are in the input. (The last
    // code unit is read directly: a regular expression anchored at the end scans the whole text.)
    const last = cut.charCodeAt(cut.length - 1);
    return last >= 0xd800 && last <= 0xdbff && !withLoneSurrogates ? cut.slice(0, -1) : cut;
  };
  return { random, int, text };
}
