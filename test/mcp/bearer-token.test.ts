import { describe, expect, it } from "vitest";
import { bearerCredentials, bearerMatches } from "../../src/mcp/bearer-token.js";

describe("bearerMatches", () => {
  const token = "a-token-of-enough-length";

  it("accepts the Bearer scheme in any case, as RFC 7235 says schemes are compared", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`BEARER  ${token}`, token)).toBe(true);
  });

  it("refuses another scheme, a missing header and a wrong token", () => {
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer${token}`, token)).toBe(false);
  });

  it("reads the credentials after the scheme, trimmed", () => {
    expect(bearerCredentials("bEaReR   abc  ")).toBe("abc");
    expect(bearerCredentials("Token abc")).toBeNull();
  });
});
