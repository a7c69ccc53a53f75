import { describe, expect, it } from "vitest";
import { groupScope, UNLABELLED_ONLY } from "../../src/cli/group-scope.js";
import { scopedTokens, scopeKey, scopeSummary, serverScope } from "../../src/cli/served-scopes.js";

describe("the scopes serve reads as", () => {
  it("reads only unlabelled documents when no --group is given, and everything only for --group '*'", () => {
    expect(serverScope(groupScope("serve", undefined))).toEqual(UNLABELLED_ONLY);
    expect(serverScope(groupScope("serve", ["*"]))).toBeNull();
    expect(serverScope(groupScope("serve", ["hr"]))).toEqual({ groups: ["hr"] });
    expect(() => groupScope("serve", ["*", "hr"])).toThrow(/takes no other --group/);
  });

  it("gives a token line without groups the server's scope, and keeps a line's own groups or *", () => {
    const tokens = [
      { token: "a", scope: undefined },
      { token: "b", scope: { groups: ["hr"] } },
      { token: "c", scope: null },
    ];
    expect(scopedTokens(tokens, UNLABELLED_ONLY).map((token) => token.scope)).toEqual([
      UNLABELLED_ONLY,
      { groups: ["hr"] },
      null,
    ]);
    expect(scopedTokens(tokens, { groups: ["support"] })[0].scope).toEqual({ groups: ["support"] });
  });

  it("keys scopes by their sorted groups, apart from every document", () => {
    expect(scopeKey({ groups: ["b", "a"] })).toBe(scopeKey({ groups: ["a", "b"] }));
    expect(scopeKey(null)).not.toBe(scopeKey({ groups: ["*"] }));
    expect(scopeKey(UNLABELLED_ONLY)).not.toBe(scopeKey(null));
  });

  it("summarises one line per kind of scope, counting callers and naming groups, never more than five scopes", () => {
    const scopes = [
      null,
      UNLABELLED_ONLY,
      UNLABELLED_ONLY,
      ...["a", "b", "c", "d", "e", "f"].map((g) => ({ groups: [g] })),
    ];
    const lines = scopeSummary(scopes, ["token", "tokens"]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("1 token: every document (groups *)");
    expect(lines[1]).toMatch(/^2 tokens: only documents without an access label/);
    expect(lines[2]).toBe("6 tokens: their groups, 6 scopes ([a] 1, [b] 1, [c] 1, [d] 1, [e] 1, and 1 more)");
  });
});

describe("the scope summary of a server without tokens", () => {
  it("names every caller without a count", () => {
    expect(scopeSummary([UNLABELLED_ONLY], ["every caller", "every caller"])[0]).toMatch(
      /^every caller: only documents without an access label/,
    );
  });
});
