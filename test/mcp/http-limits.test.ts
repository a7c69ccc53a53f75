import { describe, expect, it } from "vitest";
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  resolveHttpLimits,
} from "../../src/mcp/http-limits.js";

describe("resolveHttpLimits", () => {
  it("applies the documented defaults: 10 s for headers, 30 s for a request, 512 connections", () => {
    expect(resolveHttpLimits({})).toEqual({
      headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      maxConnections: DEFAULT_MAX_CONNECTIONS,
      checkIntervalMs: 2500,
    });
    expect([DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS]).toEqual([
      10_000, 30_000, 512,
    ]);
  });

  it("raises a request timeout shorter than the headers timeout, and checks small timeouts often enough", () => {
    const limits = resolveHttpLimits({ headersTimeoutMs: 400, requestTimeoutMs: 100 });
    expect(limits.requestTimeoutMs).toBe(400);
    expect(limits.checkIntervalMs).toBe(100);
  });

  it("refuses a limit that is not a positive integer, naming it", () => {
    expect(() => resolveHttpLimits({ maxConnections: 0 })).toThrow(/maxConnections must be a positive integer, got 0/);
    expect(() => resolveHttpLimits({ headersTimeoutMs: 1.5 })).toThrow(/headersTimeoutMs/);
  });
});
