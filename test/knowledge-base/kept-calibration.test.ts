import { describe, expect, it } from "vitest";
import { defaultCalibration } from "../../src/calibration/calibration.js";
import { keptCalibration } from "../../src/knowledge-base/update-index.js";

describe("the calibration an incremental update keeps", () => {
  const measured = { ...defaultCalibration("x"), source: "measured" as const, note: null };

  it("is unchanged when the embedder was kept and the corpus did not cross the minimum", () => {
    expect(keptCalibration(measured, { refitted: false, grewPastMinimum: false })).toBe(measured);
  });

  it("says it is stale once the embedder was refitted, however many updates follow", () => {
    const once = keptCalibration(measured, { refitted: true, grewPastMinimum: false });
    const twice = keptCalibration(once, { refitted: true, grewPastMinimum: false });

    expect(once.note).toBe("stale: the embedder was refitted since; a full build measures again");
    expect(twice.note).toBe(once.note);
    expect(twice.relevance).toEqual(measured.relevance);
  });

  it("keeps the reason for the defaults after the staleness when the corpus grew past the minimum", () => {
    const small = defaultCalibration("the corpus has 9 chunks; calibration needs at least 30");
    const kept = keptCalibration(small, { refitted: false, grewPastMinimum: true });

    expect(kept.note).toBe(
      "stale: the corpus has grown past 30 chunks since; a full build measures again; the corpus has 9 chunks; calibration needs at least 30",
    );
    expect(keptCalibration(kept, { refitted: true, grewPastMinimum: false }).note).toBe(
      "stale: the embedder was refitted since; a full build measures again; the corpus has 9 chunks; calibration needs at least 30",
    );
  });
});
