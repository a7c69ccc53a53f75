import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { linkProblems } from "../../scripts/package-check/link-problems.js";
import {
  contentProblems,
  entryPoints,
  manifestProblems,
  repositoryUrl,
  type PackedManifest,
} from "../../scripts/package-check/package-contents.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

const MANIFEST: PackedManifest = {
  name: "lookup-knowledge",
  version: "0.1.0",
  license: "MIT",
  keywords: ["langchain"],
  homepage: "https://github.com/owner/name#readme",
  repository: { type: "git", url: "git+https://github.com/owner/name.git" },
  bugs: { url: "https://github.com/owner/name/issues" },
  main: "./dist/src/index.js",
  types: "./dist/src/index.d.ts",
  bin: { "lookup-knowledge": "./bin/lookup-knowledge.js" },
  exports: { ".": { import: "./dist/src/index.js" }, "./eval": { import: "./dist/src/eval/index.js" } },
  files: ["bin", "dist/src"],
};
const SHIPPED = [
  "package.json",
  "README.md",
  "LICENSE",
  "CHANGELOG.md",
  "bin/lookup-knowledge.js",
  "dist/src/index.js",
  "dist/src/index.d.ts",
  "dist/src/eval/index.js",
  "docs/cli.md",
];
const TRACKED = new Set(SHIPPED.filter((file) => !file.startsWith("dist/")));

describe("the packed manifest", () => {
  it("reads the repository's web address from a git+https url", () => {
    expect(repositoryUrl(MANIFEST)).toBe("https://github.com/owner/name");
    expect(repositoryUrl({ repository: "https://github.com/owner/name" })).toBe("https://github.com/owner/name");
    expect(repositoryUrl({})).toBeNull();
  });

  it("lists main, types, bin and every export condition as entry points", () => {
    expect(entryPoints(MANIFEST)).toEqual([
      "bin/lookup-knowledge.js",
      "dist/src/eval/index.js",
      "dist/src/index.d.ts",
      "dist/src/index.js",
    ]);
  });

  it("names each page field that is missing", () => {
    expect(manifestProblems(MANIFEST)).toEqual([]);
    expect(manifestProblems({ name: "x", version: "1.0.0", license: "MIT" })).toEqual([
      'package.json has no "homepage"',
      'package.json has no https "repository" url',
      'package.json has no https "bugs" url',
      'package.json has no "keywords"',
      'package.json has no "files" list',
    ]);
  });
});

describe("the tarball's file list", () => {
  it("accepts the required files, the entry points and tracked docs", () => {
    expect(contentProblems(SHIPPED, MANIFEST, TRACKED)).toEqual([]);
  });

  it("names missing entry points, files that must not ship and untracked files", () => {
    const files = [
      ...SHIPPED.filter((file) => file !== "dist/src/eval/index.js" && file !== "CHANGELOG.md"),
      "src/index.ts",
      "test/a.test.ts",
      "bench/results/run.json",
      "docs/draft.md",
      "app.tgz",
    ];
    expect(
      contentProblems(
        files,
        MANIFEST,
        new Set([...TRACKED, "src/index.ts", "test/a.test.ts", "bench/results/run.json"]),
      ),
    ).toEqual([
      "missing CHANGELOG.md",
      "missing dist/src/eval/index.js",
      "ships src/index.ts, which must not be published",
      "ships test/a.test.ts, which must not be published",
      "ships bench/results/run.json, which must not be published",
      "ships docs/draft.md, which the repository does not track",
      "ships app.tgz, which must not be published",
    ]);
  });
});

describe("the links of the shipped pages", () => {
  const context = (pages: Record<string, string>, files: string[]) => ({
    pages: new Map(Object.entries(pages)),
    files: new Set([...Object.keys(pages), ...files]),
    repositoryUrl: "https://github.com/owner/name",
    tracked: new Set(["src/index.ts", "docs/cli.md", "README.md"]),
  });

  it("resolves relative links, folders, anchors and links to tracked repository files", () => {
    const report = linkProblems(
      context(
        {
          "README.md":
            "[cli](docs/cli.md#query) [ex](examples/) [top](#use-it) [src](https://github.com/owner/name/blob/main/src/index.ts) [bugs](https://github.com/owner/name/issues) [web](https://example.org)\n## Use it",
          "docs/cli.md": "# CLI\n## Query\n[back](../README.md#use-it)",
        },
        ["examples/agent.ts"],
      ),
    );
    expect(report).toEqual({ problems: [], checked: 6, external: 1 });
  });

  it("names each broken link with its page and line", () => {
    const report = linkProblems(
      context(
        {
          "README.md":
            "[a](docs/missing.md)\n[b](docs/cli.md#no-such)\n[c](../outside.md)\n[d](#nowhere)\n[e](https://github.com/owner/name/blob/main/src/gone.ts)\n[f](dist/x.js#y)",
          "docs/cli.md": "# CLI",
        },
        ["dist/x.js"],
      ),
    );
    expect(report.problems).toEqual([
      'README.md:1: link "docs/missing.md" names docs/missing.md, which the package does not ship',
      'README.md:2: link "docs/cli.md#no-such" names #no-such, a heading docs/cli.md does not have',
      'README.md:3: link "../outside.md" leaves the package',
      'README.md:4: link "#nowhere" names #nowhere, a heading README.md does not have',
      'README.md:5: link "https://github.com/owner/name/blob/main/src/gone.ts" names src/gone.ts, which the repository does not track',
      'README.md:6: link "dist/x.js#y" has an anchor, but dist/x.js is not a Markdown page',
    ]);
  });

  it("finds the README's links broken in a tarball of only bin, dist/src and README.md (the check can fail)", async () => {
    const readme = await readFile(join(REPO_ROOT, "README.md"), "utf8");
    const report = linkProblems({
      pages: new Map([["README.md", readme]]),
      files: new Set(["README.md", "package.json", "bin/lookup-knowledge.js", "dist/src/index.js"]),
      repositoryUrl: null,
      tracked: new Set(),
    });
    expect(report.problems.length).toBeGreaterThan(10);
    expect(report.problems.some((problem) => problem.includes("docs/cli.md"))).toBe(true);
  });
});
