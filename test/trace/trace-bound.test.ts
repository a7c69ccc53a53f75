import { describe, expect, it } from "vitest";
import { preview, toErrorRecord, toTraceRecord, type ToolInvocationRecord } from "../../src/trace/trace-record.js";
import {
  block,
  hasLoneSurrogate,
  hostileGenerator,
  isValidUtf8Line,
  LIMIT_BYTES,
  lineBytes,
  lookupResult,
  stringsOf,
  traceContext,
} from "./trace-inputs.js";

const MB = 1_000_000;

function details(record: ToolInvocationRecord) {
  if (record.retrieval_details === null) throw new Error("expected retrieval details");
  return record.retrieval_details;
}

describe("the bound on a tool_invocation record", () => {
  it("cuts 1 MB titles so that the line stays within 64 KiB, and lists what it cut", () => {
    const title = `Huge ${"title ".repeat(MB / 6)}`;
    const evidence = Array.from({ length: 5 }, (_, i) =>
      block({ source: `huge.md#s${i}`, title, hitReasons: [`L0:title:${title}`, "L1:similarity:0.50"] }),
    );
    const record = toTraceRecord(lookupResult(evidence, { titles: [title] }), traceContext());

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    const cut = details(record).evidence[0].title ?? "";
    expect(cut.startsWith("Huge title title")).toBe(true);
    expect(cut.endsWith("…")).toBe(true);
    expect(details(record).l0.matched_titles[0].startsWith("Huge title")).toBe(true);
    expect(record.truncated).toEqual(
      expect.arrayContaining([
        "retrieval_details.l0.matched_titles[]",
        "retrieval_details.evidence[].title",
        "retrieval_details.evidence[].hit_reasons[]",
      ]),
    );
    // What was not cut keeps its value.
    expect(details(record).evidence[0].hit_reasons[1]).toBe("L1:similarity:0.50");
    expect(details(record).evidence.map((e) => e.source)).toEqual(evidence.map((e) => e.source));
  });

  it("cuts a long domain evidence list and its long domains, keeping the numbers", () => {
    const domainEvidence = Array.from({ length: 5_000 }, (_, i) => ({
      domain: `d${i}-${"x".repeat(1_000)}`,
      strength: 2,
      files: i + 1,
    }));
    const record = toTraceRecord(
      lookupResult([block()], { domains: domainEvidence.map(({ domain }) => domain), domainEvidence }),
      traceContext(),
    );

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    const kept = details(record).l0.domain_evidence;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(50);
    kept.forEach((entry, i) => {
      expect(entry.domain.length).toBeLessThanOrEqual(200);
      expect(domainEvidence[i].domain.startsWith(entry.domain.replace(/…$/, ""))).toBe(true);
      expect(entry).toMatchObject({ strength: 2, files: i + 1 });
    });
    expect(record.truncated).toEqual(
      expect.arrayContaining(["retrieval_details.l0.domain_evidence", "retrieval_details.l0.domain_evidence[].domain"]),
    );
  });

  it("keeps the first of 10,000 hit reasons and says the list was cut", () => {
    const reasons = Array.from({ length: 10_000 }, (_, i) => `L0:keyword:term-${i}`);
    const record = toTraceRecord(lookupResult([block({ hitReasons: reasons })]), traceContext());

    const kept = details(record).evidence[0].hit_reasons;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(50);
    expect(kept).toEqual(reasons.slice(0, kept.length));
    expect(record.truncated).toContain("retrieval_details.evidence[].hit_reasons");
    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it("cuts a 1 MB error message of a failed lookup and of a failed L1 search", () => {
    const message = `embedder down: ${"x".repeat(MB)}`;
    const failed = toErrorRecord(
      "inv-err",
      {
        toolName: "lookup_knowledge",
        startedAt: 0,
        durationMs: 1,
        input: { query: "q", domain: null, limit: 5 },
        corpusFingerprint: null,
      },
      new Error(message),
    );
    const l1Failed = toTraceRecord(lookupResult([block()]), traceContext("q", message));

    expect(lineBytes(failed)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(failed.error?.startsWith("embedder down: xxx")).toBe(true);
    expect(failed.error?.length).toBeLessThanOrEqual(2_000);
    expect(failed.truncated).toEqual(["error"]);
    expect(lineBytes(l1Failed)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(details(l1Failed).l1.error?.startsWith("embedder down: xxx")).toBe(true);
    expect(l1Failed.truncated).toEqual(["retrieval_details.l1.error"]);
  });

  it("fits 20 evidence blocks with 5 KB sources, keeping every block", () => {
    const evidence = Array.from({ length: 20 }, (_, i) => block({ source: `${"deep/".repeat(1_000)}doc-${i}.md#top` }));
    const record = toTraceRecord(lookupResult(evidence), traceContext());

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(details(record).evidence).toHaveLength(20);
    expect(details(record).evidence_count).toBe(20);
    expect(record.truncated).toEqual(["retrieval_details.evidence[].source"]);
  });

  it("cuts a 1 MB query, which the subgraph can be given directly", () => {
    const query = "q".repeat(MB);
    const record = toTraceRecord(lookupResult([block()], {}, query), traceContext(query));

    expect(record.input.query.length).toBeLessThanOrEqual(1_000);
    expect(record.truncated).toEqual(["input.query"]);
    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it("never splits a surrogate pair and stays within 64 KiB in bytes for non-ASCII text", () => {
    const emoji = "😀".repeat(MB / 2);
    const cjk = "漢".repeat(MB);
    const evidence = Array.from({ length: 20 }, (_, i) =>
      block({ source: `${cjk}#${i}`, title: emoji, hitReasons: [`L0:title:${emoji}`, `L0:entity:${cjk}`] }),
    );
    const record = toTraceRecord(
      lookupResult(evidence, { titles: [emoji, cjk], entities: [cjk] }),
      traceContext(emoji),
    );
    const line = JSON.stringify(record);

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(isValidUtf8Line(line)).toBe(true);
    expect(stringsOf(JSON.parse(line)).some(hasLoneSurrogate)).toBe(false);
  });

  it("stays valid JSON and valid UTF-8 when the input holds lone surrogates", () => {
    const lone = "a\uD800b\uDC00c\uDBFF".repeat(200_000);
    const record = toTraceRecord(
      lookupResult([block({ title: lone, source: lone, hitReasons: [lone, lone] })], { keywords: [lone] }),
      traceContext(lone),
    );
    const line = JSON.stringify(record);

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(isValidUtf8Line(line)).toBe(true);
    expect(() => JSON.parse(line)).not.toThrow();
  });

  it("leaves a small record whole, with no truncated field", () => {
    const record = toTraceRecord(lookupResult([block()], { titles: ["Restart"] }), traceContext());

    expect(record).not.toHaveProperty("truncated");
    expect(details(record).evidence[0]).toMatchObject({
      source: "ops/restart.md#drain",
      title: "Restart",
      hit_reasons: ["L0:keyword:drain"],
    });
  });

  it("holds the bound for 120 generated records of every size, keeping identity and counts", () => {
    for (let seed = 1; seed <= 120; seed++) {
      const gen = hostileGenerator(seed);
      const lone = gen.random() < 0.2;
      // Many items or huge items, not both: the inputs themselves must fit in memory.
      const list = (max: number, huge = 0.1) =>
        gen.random() < huge
          ? Array.from({ length: gen.int(12_000) }, () => gen.text(lone, 2))
          : Array.from({ length: gen.int(max) }, () => gen.text(lone, 5));
      const many = gen.random() < 0.1;
      const orders = many ? 4 : 6;
      const evidence = Array.from({ length: gen.int(many ? 200 : 20) }, () =>
        block({
          source: gen.text(lone, orders),
          title: gen.text(lone, orders),
          content: gen.text(lone, orders),
          hitReasons: list(many ? 3 : 30, many ? 0 : 0.05),
        }),
      );
      const query = gen.text(lone);
      const hints = { titles: list(60), keywords: list(60), domains: list(5), entities: list(60) };
      const input = lookupResult(evidence, hints, query);
      const record = toTraceRecord(input, traceContext(query, gen.random() < 0.3 ? gen.text(lone) : null));
      const line = JSON.stringify(record);
      const context = `seed ${seed}`;

      expect(lineBytes(record), context).toBeLessThanOrEqual(LIMIT_BYTES);
      expect(isValidUtf8Line(line), context).toBe(true);
      const parsed = JSON.parse(line) as ToolInvocationRecord;
      expect(parsed).toMatchObject({ type: "tool_invocation", invocation_id: "inv-huge", status: "success" });
      expect(details(parsed).evidence_count, context).toBe(evidence.length);
      expect(details(parsed).candidate_count, context).toBe(evidence.length + 3);
      if (!lone) expect(stringsOf(parsed).some(hasLoneSurrogate), context).toBe(false);
      for (const kept of details(parsed).evidence)
        expect(kept.content_preview.length, context).toBeLessThanOrEqual(200);
      // Kept items are prefixes of the originals, in order.
      details(parsed).evidence.forEach((kept, i) => {
        kept.hit_reasons.forEach((reason, j) =>
          expect(evidence[i].hitReasons[j].startsWith(reason.replace(/…$/, "")), context).toBe(true),
        );
      });
      if (parsed.truncated === undefined) {
        expect(parsed.input.query, context).toBe(query);
        expect(details(parsed).l0.matched_titles, context).toEqual(hints.titles);
        expect(
          details(parsed).evidence.map((e) => e.hit_reasons),
          context,
        ).toEqual(evidence.map((e) => e.hitReasons));
      } else {
        expect(parsed.truncated.length, context).toBeGreaterThan(0);
      }
    }
  });
});

describe("preview", () => {
  it("never ends a preview inside a surrogate pair", () => {
    const cut = preview("😀".repeat(300));

    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut.endsWith("…")).toBe(true);
    expect(hasLoneSurrogate(cut)).toBe(false);
  });
});
