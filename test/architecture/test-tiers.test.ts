import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config, { ENGINE_TESTS } from "../../vitest.config.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

/** The `--project` names an npm script passes to `vitest run`. */
function projectsOf(script: string): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  return [...scripts[script].matchAll(/--project (\S+)/g)].map((match) => match[1]);
}

const projectNames = () =>
  (config.test?.projects ?? []).map((project) => (project as { test: { name: string } }).test.name).sort();

describe("the test tiers", () => {
  it("lists in the default tier only integration test files that exist", () => {
    for (const file of ENGINE_TESTS) {
      expect(file).toMatch(/\.int\.test\.ts$/);
      expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
    }
  });

  it("runs every project in exactly one of npm test and npm run test:slow, and all of them in test:all", () => {
    const fast = projectsOf("test");
    const slow = projectsOf("test:slow");
    expect(fast).toEqual(["unit", "engines"]);
    expect([...fast, ...slow].sort()).toEqual(projectNames());
    expect(projectsOf("test:all")).toEqual([]);
    expect(projectsOf("test:reliability")).toEqual(["reliability"]);
  });
});
