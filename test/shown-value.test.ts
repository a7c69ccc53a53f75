import { describe, expect, it } from "vitest";
import { describeJsonError, MAX_SHOWN_CHARS, shownJson, shownValue } from "../src/shown-value.js";

function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error("expected a parse error");
}

describe("shownValue and shownJson", () => {
  it("quote a short string and cut a long one to the limit with its length", () => {
    expect(shownValue("abc")).toBe('"abc"');
    const long = shownValue("x".repeat(5000));
    expect(long).toBe(`${JSON.stringify("x".repeat(MAX_SHOWN_CHARS))}… (5000 characters)`);
  });

  it("only describe a string with control characters", () => {
    expect(shownValue("a\u0000b")).toBe("a value of 3 characters that is not plain text (it holds control characters)");
  });

  it("describe objects and arrays by their size, never their fields", () => {
    expect(shownJson({ password: "hunter2" })).toBe("an object of 1 field");
    expect(shownJson([1, 2, 3])).toBe("an array of 3 items");
    expect(shownJson(42)).toBe("42");
    expect(shownJson(null)).toBe("null");
  });
});

describe("describeJsonError", () => {
  it("never quotes the line that failed to parse", () => {
    const line = "SECRET_TOKEN=hunter2";
    const text = describeJsonError(parseError(line), line);
    expect(text).not.toContain("SECRET");
    expect(text).toBe("invalid JSON: a line of 20 characters that is not one JSON value");
  });

  it("names the character where the parser stopped, or that the line ends early", () => {
    expect(describeJsonError(parseError('{"a":1 "b"}'), '{"a":1 "b"}')).toBe("invalid JSON at character 8 of 11");
    expect(describeJsonError(parseError('{"a":'), '{"a":')).toBe(
      "invalid JSON: the line of 5 characters ends inside a value",
    );
  });
});
