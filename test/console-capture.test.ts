import { describe, expect, it, vi } from "vitest";
import { captureConsole, printedLine } from "../src/console-capture.js";

/** Runs `test` with `console.error` and `console.log` replaced by spies, then puts them back. */
async function withSpies(
  test: (spies: { error: ReturnType<typeof vi.fn>; log: ReturnType<typeof vi.fn> }) => Promise<void>,
) {
  const original = { error: console.error, log: console.log };
  const spies = { error: vi.fn(), log: vi.fn() };
  Object.assign(console, spies);
  try {
    await test(spies);
  } finally {
    Object.assign(console, original);
  }
}

describe("captureConsole", () => {
  it("hands what the run prints, however deep it awaits, to onLine as one line per call, and prints none of it", async () => {
    await withSpies(async (spies) => {
      const lines: string[] = [];
      const result = await captureConsole(
        async () => {
          console.error(new Error("printed with its stack"));
          await new Promise((resolve) => setTimeout(resolve, 1));
          console.warn("a %s of %d", "warning", 2);
          return 7;
        },
        (line) => lines.push(line),
      );
      expect(result).toBe(7);
      expect(lines).toEqual(["Error: printed with its stack", "a warning of 2"]);
      expect(spies.error).not.toHaveBeenCalled();
    });
  });

  it("lets what the app prints outside the run meanwhile reach the console", async () => {
    await withSpies(async (spies) => {
      const lines: string[] = [];
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const run = captureConsole(
        async () => {
          await gate;
          console.error("inside");
        },
        (line) => lines.push(line),
      );
      console.log("the app, meanwhile");
      release();
      await run;
      expect(spies.log).toHaveBeenCalledWith("the app, meanwhile");
      expect(lines).toEqual(["inside"]);
    });
  });

  it("restores the console when the run throws, and only once the outermost of nested runs ends", async () => {
    await withSpies(async (spies) => {
      const outer: string[] = [];
      const inner: string[] = [];
      await expect(
        captureConsole(
          async () => {
            await captureConsole(
              async () => console.log("in the inner run"),
              (line) => inner.push(line),
            );
            expect(console.log).not.toBe(spies.log);
            console.log("in the outer run");
            throw new Error("failed");
          },
          (line) => outer.push(line),
        ),
      ).rejects.toThrow("failed");
      expect(console.log).toBe(spies.log);
      expect(console.error).toBe(spies.error);
      expect([inner, outer]).toEqual([["in the inner run"], ["in the outer run"]]);
    });
  });

  it("leaves a console method the app replaced during the run as the app left it", async () => {
    await withSpies(async () => {
      const logger = vi.fn();
      await captureConsole(
        async () => {
          console.error = logger;
        },
        () => {},
      );
      expect(console.error).toBe(logger);
    });
  });

  it("captures in a new run what the app's replacement would print, while an earlier run still goes on", async () => {
    await withSpies(async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = captureConsole(
        () => gate,
        () => {},
      );
      const logger = vi.fn();
      console.error = logger;
      const lines: string[] = [];
      await captureConsole(
        async () => console.error("second run"),
        (line) => lines.push(line),
      );
      release();
      await first;
      expect(lines).toEqual(["second run"]);
      expect(logger).not.toHaveBeenCalled();
      expect(console.error).toBe(logger);
    });
  });
});

describe("printedLine", () => {
  it("is the first line of what console.log would print", () => {
    expect(printedLine(["%s rows", 3, { a: 1 }])).toBe("3 rows { a: 1 }");
    expect(printedLine(["first\nsecond"])).toBe("first");
  });
});
