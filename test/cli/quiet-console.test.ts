import { describe, expect, it, vi } from "vitest";
import { withConsoleSilenced } from "../../src/cli/quiet-console.js";

describe("withConsoleSilenced", () => {
  it("keeps what a dependency prints through the console from reaching it while the run lasts", async () => {
    const original = console.error;
    const spy = vi.fn();
    console.error = spy;
    try {
      await withConsoleSilenced(async () => {
        console.error(new Error("printed with its stack"));
        console.warn("and a warning");
      });
      expect(spy).not.toHaveBeenCalled();
      console.error("after");
      expect(spy).toHaveBeenCalledWith("after");
    } finally {
      console.error = original;
    }
  });

  it("restores the console when the run throws, and only once the outermost of nested runs ends", async () => {
    const original = console.log;
    await expect(
      withConsoleSilenced(async () => {
        await withConsoleSilenced(async () => undefined);
        expect(console.log).not.toBe(original);
        throw new Error("failed");
      }),
    ).rejects.toThrow("failed");
    expect(console.log).toBe(original);
  });
});
