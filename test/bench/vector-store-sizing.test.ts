import { describe, expect, it } from "vitest";
import { meanOverlap, rotate } from "../../bench/vector-store/pass-math.js";
import { DEFAULT_SIZES, parseSizingArgs } from "../../bench/vector-store/sizing-options.js";
import { markdownTable } from "../../bench/vector-store/sizing-report.js";

describe("vector-store sizing bench helpers", () => {
  it("rotates the systems so that each goes first once", () => {
    expect(rotate(["a", "b", "c"], 0)).toEqual(["a", "b", "c"]);
    expect(rotate(["a", "b", "c"], 1)).toEqual(["b", "c", "a"]);
    expect(rotate(["a", "b", "c"], 4)).toEqual(["b", "c", "a"]);
  });

  it("measures recall only over queries whose reference answer is not empty", () => {
    expect(meanOverlap([["x", "y"], []], [["x", "z"], ["q"]])).toBe(0.5);
    expect(meanOverlap([[], []], [["x"], ["y"]])).toBeNaN();
  });

  it("reads sizes and counts from the command line and refuses unknown flags", () => {
    const options = parseSizingArgs(["--sizes", "5183,20_000", "--repeats", "2", "--merge"], "/tmp");
    expect(options).toMatchObject({ sizes: [5183, 20000], repeats: 2, queries: 200, merge: true });
    expect(parseSizingArgs([], "/tmp")).toMatchObject({ sizes: DEFAULT_SIZES });
    expect(() => parseSizingArgs(["--queries", "290", "--warmup", "20"], "/tmp")).toThrow(/at most the 300/);
    expect(() => parseSizingArgs(["--bogus"], "/tmp")).toThrow(/unknown flag --bogus/);
  });

  it("prints a Markdown table with right-aligned figures", () => {
    expect(markdownTable(["N", "ms"], [["1", "2"]])).toBe("| N | ms |\n| --- | ---: |\n| 1 | 2 |");
  });
});
