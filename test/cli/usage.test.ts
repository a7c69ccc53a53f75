import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/main.js";
import { flagUsage, formatCommandHelp, formatOverview, synopsis } from "../../src/cli/usage.js";

describe("the usage generated from the command definitions", () => {
  it("lists every command of the CLI in the overview, then help", () => {
    const overview = formatOverview(COMMANDS);
    const listed = overview
      .split("\n")
      .filter((line) => /^ {2}[a-z]+ {2,}/.test(line))
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(listed).toEqual([...COMMANDS.map((spec) => spec.name), "help"]);
    expect(overview).toContain("-V, --version");
  });

  it("shows every flag of a command in its synopsis and its help, with the default before the full stop", () => {
    for (const spec of COMMANDS) {
      const help = formatCommandHelp(spec);
      expect(help.startsWith(`Usage: ${synopsis(spec)}\n`)).toBe(true);
      for (const [name, option] of Object.entries(spec.options)) {
        expect(synopsis(spec)).toContain(`[${flagUsage(name, option)}]`);
        expect(help).toContain(`  ${flagUsage(name, option)}`);
      }
      expect(help).toContain("-h, --help");
    }
    const query = COMMANDS.find((spec) => spec.name === "query")!;
    expect(formatCommandHelp(query)).toMatch(/--limit N +Evidence blocks to return, 1 to 20 \(default: 5\)\./);
  });

  it("writes string flags with their placeholder and boolean flags bare", () => {
    expect(flagUsage("limit", { type: "string", value: "N", description: "" })).toBe("--limit N");
    expect(flagUsage("out", { type: "string", description: "" })).toBe("--out VALUE");
    expect(flagUsage("json", { type: "boolean", description: "" })).toBe("--json");
  });
});
