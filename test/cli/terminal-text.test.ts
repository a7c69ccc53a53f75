import { describe, expect, it } from "vitest";
import { MAX_STDERR_LINE_CHARS, stderrLine } from "../../src/cli/terminal-text.js";

describe("stderrLine", () => {
  it("joins line breaks and shows tabs and escape characters as visible text", () => {
    expect(stderrLine("a\n  b\tc\u001b[2Jd\re")).toBe("a b\\tc<U+001B>[2Jd<U+000D>e");
  });

  it("leaves a short line as it is", () => {
    expect(stderrLine("lookup-knowledge: no such file.")).toBe("lookup-knowledge: no such file.");
  });

  it("cuts a long line to the limit, saying how long it was", () => {
    const line = stderrLine(`lookup-knowledge: ${"x ".repeat(7_500_000)}`);
    expect(line.length).toBeLessThanOrEqual(MAX_STDERR_LINE_CHARS);
    expect(line).toMatch(/… \(cut from 15000018 characters\)$/);
  });

  it("never leaves half an escape at the cut", () => {
    const line = stderrLine("\u0001".repeat(200), 100);
    expect(line.length).toBeLessThanOrEqual(100);
    expect(line).toMatch(/(<U\+0001>)+… \(cut from 1600 characters\)$/);
  });

  it("cuts a long word (a flag value, a path) so that the fix after it still shows", () => {
    const line = stderrLine(
      `lookup-knowledge: --limit must be a whole number, got "${"c".repeat(120_000)}". Pass 1-100.`,
    );
    expect(line).toMatch(
      /^lookup-knowledge: --limit must be a whole number, got "c+… \(a word of 120003 characters\) Pass 1-100\.$/,
    );
    expect(line.length).toBeLessThan(400);
  });
});
