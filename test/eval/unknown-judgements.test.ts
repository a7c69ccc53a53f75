import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_UNKNOWN_JUDGEMENTS,
  DEFAULT_MAX_UNKNOWN_SHARE,
  resolveUnknownLimits,
  unknownLimitPassed,
} from "../../src/eval/beir/unknown-judgements.js";

const limits = resolveUnknownLimits();

describe("unknownLimitPassed", () => {
  it("defaults to more than 1,000 unknown judgements, or more than 10% of them", () => {
    expect(limits).toEqual({ maxUnknownJudgements: DEFAULT_MAX_UNKNOWN_JUDGEMENTS, maxUnknownShare: DEFAULT_MAX_UNKNOWN_SHARE });
    expect(DEFAULT_MAX_UNKNOWN_JUDGEMENTS).toBe(1000);
    expect(DEFAULT_MAX_UNKNOWN_SHARE).toBe(0.1);
  });

  it("passes the count limit mid-file, as soon as one more than allowed is unknown", () => {
    expect(unknownLimitPassed({ judgements: 1000, documents: 1000, queries: 0 }, limits, false)).toBeUndefined();
    expect(unknownLimitPassed({ judgements: 1001, documents: 600, queries: 401 }, limits, false)).toBe("count");
  });

  it("checks the share only once the whole file is read", () => {
    const counts = { judgements: 100, documents: 11, queries: 0 };
    expect(unknownLimitPassed(counts, limits, false)).toBeUndefined();
    expect(unknownLimitPassed(counts, limits, true)).toBe("share");
  });

  it("lets a share above the limit pass while no more than 10 judgements are unknown", () => {
    expect(unknownLimitPassed({ judgements: 12, documents: 10, queries: 0 }, limits, true)).toBeUndefined();
  });
});
