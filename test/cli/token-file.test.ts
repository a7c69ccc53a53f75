import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { parseTokenFile } from "../../src/cli/token-file.js";

const A = "a".repeat(16);
const B = "b".repeat(20);

function refusal(text: string): string {
  try {
    parseTokenFile(text, "tokens.txt");
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    return (error as LookupKnowledgeError).message;
  }
  throw new Error("the token file was accepted");
}

describe("parseTokenFile", () => {
  it("reads one token per line with its groups, skipping blank lines and comments", () => {
    expect(parseTokenFile(`# token groups\n\n${A}  support billing \r\n${B}\n`, "tokens.txt")).toEqual([
      { token: A, scope: { groups: ["billing", "support"] } },
      { token: B, scope: undefined },
    ]);
  });

  it("reads * alone as every document, and refuses * beside other groups", () => {
    expect(parseTokenFile(`${A} *\n`, "tokens.txt")).toEqual([{ token: A, scope: null }]);
    expect(refusal(`${A} * hr\n`)).toContain("line 1: '*' reads every document and stands alone");
  });

  it("refuses a short token, a repeated token and an empty file, naming the line and never the token", () => {
    const short = refusal("tooshort support\n");
    expect(short).toContain("line 1");
    expect(short).toContain("at least 16 characters");
    expect(short).not.toContain("tooshort");
    const repeated = refusal(`${A} hr\n# x\n${A} support\n`);
    expect(repeated).toContain("line 3 repeats the token of line 1");
    expect(repeated).not.toContain(A);
    expect(refusal("# only a comment\n\n")).toContain("holds no token");
  });

  it("refuses a group name that is too long, naming the line only", () => {
    const message = refusal(`${A} ${"g".repeat(300)}\n`);
    expect(message).toContain("line 1");
    expect(message).not.toContain("ggg");
  });
});

describe("tokenProblem", () => {
  it("refuses tokens with control characters or spaces, and accepts printable ones", async () => {
    const { tokenProblem } = await import("../../src/cli/token-file.js");
    expect(tokenProblem(`${A}\u0000PATH=/bin`)).toContain("printable ASCII");
    expect(tokenProblem("x".repeat(5000))).toContain("at most");
    expect(tokenProblem(A)).toBeNull();
  });

  it("refuses a group name with a control or bidi character in a token file", () => {
    expect(refusal(`${A} sup\u202eport\n`)).toContain("line 1: a group name holds a control or invisible character");
  });
});
