import { describe, expect, it } from "vitest";
import { normalizeOrigin, originAllowed } from "../../src/mcp/request-origin.js";

describe("originAllowed", () => {
  const allowed = new Set([normalizeOrigin("https://App.example") as string]);

  it("answers a request without an Origin header: a program, not a browser page", () => {
    expect(originAllowed(undefined, allowed, false)).toBe(true);
  });

  it("answers a listed origin, compared as an origin (case of the host, default port)", () => {
    expect(originAllowed("https://app.example", allowed, false)).toBe(true);
    expect(originAllowed("https://APP.example:443", allowed, false)).toBe(true);
  });

  it("refuses an origin that is present and not listed, and an opaque one", () => {
    expect(originAllowed("https://evil.example", allowed, true)).toBe(false);
    expect(originAllowed("http://app.example", allowed, false)).toBe(false);
    expect(originAllowed("null", allowed, true)).toBe(false);
    expect(originAllowed("file://", allowed, true)).toBe(false);
    expect(originAllowed("", allowed, true)).toBe(false);
  });

  it("allows pages from loopback hosts on a loopback bind only", () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000"]) {
      expect(originAllowed(origin, allowed, true)).toBe(true);
      expect(originAllowed(origin, allowed, false)).toBe(false);
    }
  });

  it("normalises an origin to scheme, host and port, and refuses what is not one", () => {
    expect(normalizeOrigin("HTTPS://Kb.Internal:8443/path")).toBe("https://kb.internal:8443");
    expect(normalizeOrigin("kb.internal")).toBeNull();
    expect(normalizeOrigin("ftp://kb.internal")).toBeNull();
  });
});
