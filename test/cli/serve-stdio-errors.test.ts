import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeTransportError } from "../../src/cli/serve-stdio.js";

describe("describeTransportError", () => {
  it("never quotes a line that is not JSON", () => {
    let error: unknown;
    try {
      JSON.parse("SECRET_TOKEN_123 and more");
    } catch (caught) {
      error = caught;
    }
    const line = describeTransportError(error);
    expect(line).toBe("a line from the client is not JSON; it was ignored");
    expect(line).not.toContain("SECRET");
  });

  it("never quotes a message that is not JSON-RPC", () => {
    const result = z.object({ jsonrpc: z.literal("2.0") }).safeParse({ jsonrpc: "SECRET_TOKEN_123" });
    expect(result.success).toBe(false);
    const line = describeTransportError(result.error);
    expect(line).toBe("a message from the client is not a valid JSON-RPC message; it was ignored");
  });

  it("cuts any other error to 200 characters", () => {
    expect(describeTransportError(new Error("x".repeat(5000))).length).toBeLessThanOrEqual(200);
  });
});
