import type { RunnableConfig } from "@langchain/core/runnables";
import { describe, expect, it } from "vitest";
import { groupsDigest, type AccessOption, type AccessScope } from "../../src/access/access-scope.js";
import { checkAccessOption, DEFAULT_ACCESS_TIMEOUT_MS, resolveScope } from "../../src/access/resolve-scope.js";
import { LookupKnowledgeError } from "../../src/errors.js";

const SECRET = "db password hunter2";

/** The error `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** The ACCESS_DENIED error `promise` rejects with, checked to be one line. */
async function denial(promise: Promise<unknown>): Promise<LookupKnowledgeError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(LookupKnowledgeError);
  const denied = error as LookupKnowledgeError;
  expect(denied.code).toBe("ACCESS_DENIED");
  expect(denied.message).not.toContain("\n");
  expect(denied.message).toMatch(/^lookup-knowledge: the lookup was refused/);
  return denied;
}

describe("checkAccessOption", () => {
  it("returns undefined when no access option is given", () => {
    expect(checkAccessOption(undefined)).toBeUndefined();
  });

  it("keeps a function as it is, without calling it", () => {
    let calls = 0;
    const option = (): AccessScope => {
      calls++;
      return { groups: ["ops"] };
    };
    expect(checkAccessOption(option)).toBe(option);
    expect(calls).toBe(0);
  });

  it("keeps a valid fixed scope", () => {
    const option = { groups: ["ops", " finance "] };
    expect(checkAccessOption(option)).toBe(option);
  });

  it.each([
    ["null", null],
    ["a string", "ops"],
    ["a list", ["ops"]],
    ["a scope without groups", {}],
    ["groups that are a string", { groups: "ops" }],
    ["a blank group", { groups: ["ops", " "] }],
    ["a group that is a number", { groups: [1] }],
    ["a group too long", { groups: ["g".repeat(257)] }],
  ])("refuses %s at once with an INVALID_OPTION LookupKnowledgeError", (_label, option) => {
    expect(() => checkAccessOption(option)).toThrow(LookupKnowledgeError);
    expect(() => checkAccessOption(option)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining("option access must be") }),
    );
  });
});

describe("resolveScope", () => {
  it("waits 5 seconds by default", () => {
    expect(DEFAULT_ACCESS_TIMEOUT_MS).toBe(5000);
  });

  it("applies a fixed scope", async () => {
    expect(await resolveScope({ groups: ["ops", "finance", "ops"] }, {})).toEqual({
      groups: ["finance", "ops"],
      digest: groupsDigest(["finance", "ops"]),
    });
  });

  it("applies what a synchronous function returns for the call's config", async () => {
    const config: RunnableConfig = { configurable: { user: { teams: ["hr", " ops"] } } };
    let seen: RunnableConfig | undefined;
    const option: AccessOption = (given) => {
      seen = given;
      return { groups: (given.configurable?.user as { teams: string[] }).teams };
    };
    expect(await resolveScope(option, config)).toEqual({ groups: ["hr", "ops"], digest: groupsDigest(["hr", "ops"]) });
    expect(seen).toBe(config);
  });

  it("applies what an asynchronous function resolves to", async () => {
    const option: AccessOption = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { groups: ["ops"] };
    };
    expect((await resolveScope(option, {})).groups).toEqual(["ops"]);
  });

  it("waits for a slow function as long as the timeout allows, and forever with 0", async () => {
    const slow: AccessOption = () => new Promise((resolve) => setTimeout(() => resolve({ groups: ["ops"] }), 40));
    expect((await resolveScope(slow, {}, 1000)).groups).toEqual(["ops"]);
    expect((await resolveScope(slow, {}, 0)).groups).toEqual(["ops"]);
  });

  it("refuses the lookup when the function throws, without quoting the error", async () => {
    const thrown = new Error(SECRET);
    const error = await denial(
      resolveScope(() => {
        throw thrown;
      }, {}),
    );
    expect(error.message).toContain("function threw");
    expect(error.message).not.toContain("hunter2");
    expect(error.cause).toBe(thrown);
  });

  it("refuses the lookup when the function throws something that is not an Error", async () => {
    const error = await denial(
      resolveScope(() => {
        throw SECRET;
      }, {}),
    );
    expect(error.message).not.toContain("hunter2");
  });

  it("refuses the lookup when the function rejects, without quoting the reason", async () => {
    const error = await denial(resolveScope(() => Promise.reject(new Error(`${SECRET}\nsecond line`)), {}));
    expect(error.message).toContain("function threw");
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("second line");
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a list of groups", ["ops"]],
    ["a string", "ops"],
    ["groups that are a string", { groups: "ops" }],
    ["a blank group", { groups: ["ops", ""] }],
    ["a group that is not a string", { groups: ["ops", { name: SECRET }] }],
  ])("refuses the lookup when the function returns %s", async (_label, value) => {
    const option = (() => value) as unknown as AccessOption;
    const error = await denial(resolveScope(option, {}));
    expect(error.message).toContain("is not usable");
    expect(error.message).not.toContain("hunter2");
  });

  it("refuses the lookup when a promise resolves to garbage", async () => {
    const option = (async () => ({ groups: [42] })) as unknown as AccessOption;
    expect((await denial(resolveScope(option, {}))).message).toContain("group 1 is number, not a string");
  });

  it("refuses the lookup when the function hangs past the timeout", async () => {
    const started = performance.now();
    const error = await denial(resolveScope(() => new Promise<AccessScope>(() => {}), {}, 30));
    expect(error.message).toContain("did not answer within 30 ms");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("ignores an answer that arrives after the timeout", async () => {
    const late: AccessOption = () => new Promise((resolve) => setTimeout(() => resolve({ groups: ["ops"] }), 60));
    await denial(resolveScope(late, {}, 10));
    await new Promise((resolve) => setTimeout(resolve, 80));
  });

  it("rethrows the abort reason when the caller's run was cancelled before the call", async () => {
    const controller = new AbortController();
    const reason = new Error("run cancelled");
    controller.abort(reason);
    expect(await rejection(resolveScope(() => ({ groups: ["ops"] }), { signal: controller.signal }))).toBe(reason);
  });

  it("rethrows the abort reason when the caller cancels while the function hangs", async () => {
    const controller = new AbortController();
    const reason = new Error("run cancelled");
    const pending = resolveScope(() => new Promise<AccessScope>(() => {}), { signal: controller.signal }, 0);
    setTimeout(() => controller.abort(reason), 10);
    expect(await rejection(pending)).toBe(reason);
  });

  it("rethrows the abort reason when the function fails because the run was cancelled", async () => {
    const controller = new AbortController();
    const reason = new Error("run cancelled");
    const option: AccessOption = async (config) => {
      controller.abort(reason);
      throw config.signal?.reason;
    };
    expect(await rejection(resolveScope(option, { signal: controller.signal }))).toBe(reason);
  });
});
