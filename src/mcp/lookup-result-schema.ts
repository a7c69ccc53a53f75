import { z } from "zod";

/** One evidence block as MCP clients receive it (further fields of `EvidenceBlock` pass through). */
const evidenceBlock = z.looseObject({
  source: z.string(),
  title: z.string().optional(),
  domain: z.string().optional(),
  retrievalLayer: z.enum(["L0", "L1", "L0+L1"]),
  content: z.string(),
  hitReasons: z.array(z.string()),
});

/**
 * The `outputSchema` of `lookup_knowledge` over MCP: the tool's `LookupResult` artifact, whose
 * top-level fields are all described, nested objects checked for their main fields only (so that
 * a field added to the result later reaches clients without a schema change).
 */
export const lookupResultSchema = z.looseObject({
  invocationId: z.string(),
  query: z.string(),
  retrievalLayer: z.enum(["L0", "L1", "L0+L1", "none"]),
  hints: z.looseObject({}),
  domainFilter: z.string().nullable(),
  l1Status: z.enum(["ok", "empty", "error", "disabled", "unavailable"]),
  fallbackReason: z.enum(["l1_empty", "l1_error", "l1_disabled", "l1_unavailable"]).nullable(),
  relevance: z.looseObject({}),
  evidence: z.array(evidenceBlock),
  primary: evidenceBlock.nullable(),
  supplements: z.array(evidenceBlock),
  candidateCount: z.number(),
  evidenceCount: z.number(),
  contentTruncated: z.boolean(),
  traceWritten: z.boolean(),
  access: z
    .looseObject({ groups: z.array(z.string()) })
    .nullable()
    .optional(),
  timings: z.looseObject({}).optional(),
});
