import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/parse-command.js";
import { SERVE_COMMAND } from "../../src/cli/serve-command.js";
import { serveLimits } from "../../src/cli/serve-limit-flags.js";

const limits = (...argv: string[]) => serveLimits(parseCommand(SERVE_COMMAND, argv));

describe("serveLimits", () => {
  it("leaves every bound to the endpoint's default when no flag is given", () => {
    expect(limits()).toEqual({});
  });

  it("reads each caller's fair share, a queue of 0 included", () => {
    expect(limits("--max-calls-in-flight", "4", "--max-queued-calls", "0")).toEqual({
      maxCallsInFlight: 4,
      maxQueuedCalls: 0,
    });
  });

  it("refuses a caller with no call in flight, naming the flag and the value", () => {
    expect(() => limits("--max-calls-in-flight", "0")).toThrow(
      /--max-calls-in-flight must be a whole number from 1 to 10000, got "0"/,
    );
    expect(() => limits("--max-queued-calls", "-1")).toThrow(/--max-queued-calls must be a whole number from 0/);
  });
});
