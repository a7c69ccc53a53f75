import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  applyScope,
  checkUnlabelled,
  groupsDigest,
  MAX_GROUP_CHARS,
  MAX_SCOPE_GROUPS,
  normalizeGroups,
  type AppliedScope,
} from "../../src/access/access-scope.js";
import { LookupKnowledgeError } from "../../src/errors.js";

const SECRET = "TOPSECRET-finance-board";

function applied(value: unknown): AppliedScope {
  const scope = applyScope(value);
  if (typeof scope === "string") throw new Error(`expected a scope, got the problem "${scope}"`);
  return scope;
}

describe("normalizeGroups", () => {
  it("trims, sorts and dedupes group names", () => {
    expect(normalizeGroups([" ops", "finance", "ops ", "finance", "hr"])).toEqual(["finance", "hr", "ops"]);
  });

  it("compares names exactly, keeping groups that differ only in case", () => {
    expect(normalizeGroups(["ops", "Ops"])).toEqual(["Ops", "ops"]);
  });

  it("accepts an empty list", () => {
    expect(normalizeGroups([])).toEqual([]);
  });

  it.each([
    ["a string", SECRET, "groups is string"],
    ["null", null, "groups is null"],
    ["undefined", undefined, "groups is undefined"],
    ["an object", { [SECRET]: true }, "groups is object"],
  ])("names the problem when the groups are %s, not a list", (_label, value, problem) => {
    expect(normalizeGroups(value)).toBe(`${problem}, not a list of group names`);
  });

  it.each([
    ["a number", [SECRET, 7], "group 2 is number, not a string"],
    ["null", [null], "group 1 is null, not a string"],
    ["an object", ["ops", "hr", { name: SECRET }], "group 3 is object, not a string"],
    ["a blank string", ["ops", "   "], "group 2 is blank"],
    ["an empty string", [""], "group 1 is blank"],
  ])("names the position of an item that is %s", (_label, value, problem) => {
    expect(normalizeGroups(value)).toBe(problem);
  });

  it("accepts a name of the longest length, measured after trimming, and refuses a longer one", () => {
    const longest = "g".repeat(MAX_GROUP_CHARS);
    expect(normalizeGroups([`  ${longest}  `])).toEqual([longest]);
    expect(normalizeGroups(["ops", `${longest}x`])).toBe(`group 2 is longer than ${MAX_GROUP_CHARS} characters`);
  });

  it("accepts as many groups as the limit and refuses one more", () => {
    const names = Array.from({ length: MAX_SCOPE_GROUPS }, (_, i) => `g${i}`);
    expect(normalizeGroups(names)).toHaveLength(MAX_SCOPE_GROUPS);
    expect(normalizeGroups([...names, "one-more"])).toBe(
      `groups holds ${MAX_SCOPE_GROUPS + 1} names, more than ${MAX_SCOPE_GROUPS}`,
    );
  });

  it("never echoes the values it refuses", () => {
    const refused: unknown[] = [
      SECRET,
      [SECRET, 1],
      [SECRET, ` ${SECRET.repeat(20)} `],
      [SECRET, null],
      [SECRET, ""],
      Array.from({ length: MAX_SCOPE_GROUPS + 1 }, () => SECRET),
    ];
    for (const value of refused) {
      const problem = normalizeGroups(value);
      expect(typeof problem).toBe("string");
      expect(problem).not.toContain("TOPSECRET");
    }
  });
});

describe("applyScope", () => {
  it("normalises the groups and names them by a 16-hex-digit digest of the sorted list", () => {
    const scope = applied({ groups: [" ops ", "finance", "ops"] });
    expect(scope.groups).toEqual(["finance", "ops"]);
    expect(scope.digest).toMatch(/^[0-9a-f]{16}$/);
    expect(scope.digest).toBe(groupsDigest(["finance", "ops"]));
  });

  it("gives the same digest whatever the order, spacing or repetition of the groups", () => {
    const digests = [
      ["a", "b", "c"],
      ["c", "b", "a"],
      [" b", "a ", "c", "a"],
    ].map((groups) => applied({ groups }).digest);
    expect(new Set(digests).size).toBe(1);
  });

  it("gives the same digest on every call", () => {
    expect(applied({ groups: ["ops"] }).digest).toBe(applied({ groups: ["ops"] }).digest);
  });

  it("gives different scopes different digests", () => {
    const digests = [[], ["a"], ["b"], ["a", "b"], ["a,b"], ["A"]].map((groups) => applied({ groups }).digest);
    expect(new Set(digests).size).toBe(digests.length);
  });

  it("accepts a scope with no groups", () => {
    expect(applied({ groups: [] })).toEqual({ groups: [], digest: groupsDigest([]) });
  });

  it("ignores other keys of the scope", () => {
    expect(applied({ groups: ["ops"], user: SECRET }).groups).toEqual(["ops"]);
  });

  it.each([
    ["null", null, "it gave null instead of { groups: string[] }"],
    ["a list", ["ops"], "it gave a list instead of { groups: string[] }"],
    ["a string", SECRET, "it gave string instead of { groups: string[] }"],
    ["a number", 42, "it gave number instead of { groups: string[] }"],
    ["undefined", undefined, "it gave undefined instead of { groups: string[] }"],
  ])("refuses %s in place of a scope", (_label, value, problem) => {
    expect(applyScope(value)).toBe(problem);
  });

  it("passes on the problem of its groups", () => {
    expect(applyScope({})).toBe("groups is undefined, not a list of group names");
    expect(applyScope({ groups: [SECRET, 3] })).toBe("group 2 is number, not a string");
  });

  it("refuses a scope whose groups throw when read, without echoing the error", () => {
    const hostile = {
      get groups(): string[] {
        throw new Error(SECRET);
      },
    };
    expect(applyScope(hostile)).toBe("its groups cannot be read");
  });

  it("refuses a list of groups whose items throw when read", () => {
    const groups = new Proxy(["ops"], {
      get(target, property, receiver) {
        if (property === "0") throw new Error(SECRET);
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    expect(applyScope({ groups })).toBe("its groups cannot be read");
  });
});

describe("checkUnlabelled", () => {
  it.each(["allow", "deny", undefined] as const)("accepts %s", (value) => {
    expect(checkUnlabelled(value)).toBe(value);
  });

  it.each([["ALLOW"], ["open"], [""], [true], [0], [null], [{ policy: "allow" }]])(
    "refuses %j with an INVALID_OPTION LookupKnowledgeError",
    (value) => {
      expect(() => checkUnlabelled(value)).toThrow(LookupKnowledgeError);
      expect(() => checkUnlabelled(value)).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining("option unlabelled") }),
      );
    },
  );

  it("quotes at most 40 characters of a wrong string", () => {
    const value = `${"x".repeat(40)}${SECRET}`;
    expect(() => checkUnlabelled(value)).toThrow(
      expect.objectContaining({ message: expect.stringContaining(JSON.stringify("x".repeat(40))) }),
    );
    expect(() => checkUnlabelled(value)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("TOPSECRET") }),
    );
  });
});

describe("groupsDigest", () => {
  it("is the first 16 hex digits of the SHA-256 of the JSON list", () => {
    expect(groupsDigest(["finance", "ops"])).toBe(
      createHash("sha256").update('["finance","ops"]').digest("hex").slice(0, 16),
    );
  });

  it("depends on the order of what it is given, which is why scopes sort first", () => {
    expect(groupsDigest(["a", "b"])).not.toBe(groupsDigest(["b", "a"]));
  });
});
