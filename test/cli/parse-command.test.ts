import { describe, expect, it } from "vitest";
import type { CommandSpec } from "../../src/cli/command-spec.js";
import { closestName, parseCommand } from "../../src/cli/parse-command.js";
import { LookupKnowledgeError } from "../../src/errors.js";

const QUERY: CommandSpec = {
  name: "query",
  summary: "Answer one question.",
  positionals: [{ name: "question", description: "The question.", required: true }],
  options: {
    limit: { type: "string", value: "N", default: "5", description: "Blocks." },
    domain: { type: "string", value: "D", description: "Domain." },
    json: { type: "boolean", default: false, description: "JSON." },
  },
  run: async () => 0,
};

const NO_ARGS: CommandSpec = {
  name: "summary",
  summary: "No positionals.",
  options: { json: { type: "boolean", description: "JSON." } },
  run: async () => 0,
};

/** The USAGE error `parseCommand` throws for `argv`. */
function usageMessage(spec: CommandSpec, argv: string[]): string {
  try {
    parseCommand(spec, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("USAGE");
    const { message } = error as LookupKnowledgeError;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error(`parseCommand accepted ${argv.join(" ")}`);
}

describe("parseCommand", () => {
  it("applies the defaults, keeps the positionals and lets a repeated flag's last value win", () => {
    expect(parseCommand(QUERY, ["how", "--limit", "3", "now", "--limit=7"])).toEqual({
      values: { limit: "7", json: false },
      lists: {},
      positionals: ["how", "now"],
    });
  });

  it("takes a negative number as a value, so that the range check can name it", () => {
    expect(parseCommand(QUERY, ["q", "--limit", "-3"]).values.limit).toBe("-3");
  });

  it("treats everything after -- as positionals", () => {
    expect(parseCommand(QUERY, ["--", "--json", "-x"]).positionals).toEqual(["--json", "-x"]);
  });

  it("names an unknown flag and suggests the closest known one", () => {
    expect(usageMessage(QUERY, ["q", "--jsno"])).toBe(
      "lookup-knowledge: query: unknown option --jsno (did you mean --json?). Run `lookup-knowledge query --help` for usage.",
    );
    expect(usageMessage(QUERY, ["q", "--nope"])).toBe(
      "lookup-knowledge: query: unknown option --nope. Run `lookup-knowledge query --help` for usage.",
    );
    expect(usageMessage(QUERY, ["q", "-x"])).toContain("unknown option -x");
  });

  it("says a string flag given last needs a value, with its placeholder", () => {
    expect(usageMessage(QUERY, ["q", "--limit"])).toContain("--limit needs a value: --limit N.");
  });

  it("refuses another flag as a string flag's value and says how to pass a value starting with a dash", () => {
    expect(usageMessage(QUERY, ["q", "--domain", "--json"])).toContain(
      "--domain needs a value (--domain D), got the option --json; write --domain=--json if that is the value.",
    );
    expect(parseCommand(QUERY, ["q", "--domain=--json"]).values.domain).toBe("--json");
  });

  it("refuses a value given to a boolean flag", () => {
    expect(usageMessage(QUERY, ["q", "--json=x"])).toContain("--json takes no value, got --json=x.");
  });

  it("refuses an argument to a command that takes none", () => {
    expect(usageMessage(NO_ARGS, ["file.jsonl"])).toContain(
      'summary: unexpected argument "file.jsonl"; summary takes no arguments, only options.',
    );
  });

  it("names a missing required positional", () => {
    expect(usageMessage(QUERY, ["--json"])).toContain("query: missing <question>.");
    expect(usageMessage(QUERY, ["  "])).toContain("missing <question>");
  });

  it("returns --help (or -h) even when the rest of the line is wrong", () => {
    expect(parseCommand(QUERY, ["--nope", "--help"]).values.help).toBe(true);
    expect(parseCommand(QUERY, ["-h"]).values.help).toBe(true);
    expect(usageMessage(QUERY, ["q", "--help=yes"])).toContain("--help takes no value");
  });
});

describe("closestName", () => {
  it("finds a typo within two edits or a prefix, and nothing for an unrelated name", () => {
    expect(closestName("inde", ["index", "query", "eval", "traces"])).toBe("index");
    expect(closestName("qeury", ["index", "query", "eval", "traces"])).toBe("query");
    expect(closestName("trace", ["trace", "no-trace"])).toBe("trace");
    expect(closestName("banana", ["index", "query", "eval", "traces"])).toBeUndefined();
    expect(closestName("x", ["json", "limit"])).toBeUndefined();
  });
});

describe("parseCommand on empty flag values", () => {
  it("refuses an empty or blank string flag as a usage error naming the flag, inline or as the next argument", () => {
    expect(usageMessage(QUERY, ["q", "--limit="])).toBe(
      "lookup-knowledge: query: --limit needs a value (--limit N), got an empty one. Run `lookup-knowledge query --help` for usage.",
    );
    expect(usageMessage(QUERY, ["q", "--limit", "  "])).toBe(
      "lookup-knowledge: query: --limit needs a value (--limit N), got an empty one. Run `lookup-knowledge query --help` for usage.",
    );
  });
});
