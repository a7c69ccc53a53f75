#!/usr/bin/env node
// The packed tarball as npm would publish it: packs the repository (or takes a tarball already
// packed), then checks package.json's page metadata, the file list (what must ship, what must
// not, nothing untracked) and every link of every shipped Markdown page, offline.
//
// Usage: npx tsx scripts/package-check/check-package.ts [--tarball FILE] [--keep]
//   --tarball FILE  check this tarball instead of packing one (`npm pack` runs the build first)
//   --keep          leave the temporary folder in place and print its path
// Prints one line per check, "[package-check] <check>: ok|FAILED - <detail>", the problems under
// a failed one, and exits 1 when any check failed.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { linkProblems } from "./link-problems.js";
import { contentProblems, manifestProblems, repositoryUrl, type PackedManifest } from "./package-contents.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PREFIX = "[package-check]";
const run = promisify(execFile);
const MAX_BUFFER = 64 * 1024 * 1024;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function packTarball(work: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: REPO,
    maxBuffer: MAX_BUFFER,
  });
  const name = stdout.trim().split("\n").at(-1) ?? "";
  if (!name.endsWith(".tgz")) throw new Error(`npm pack printed no tarball name (got "${name.slice(0, 200)}")`);
  return join(work, name);
}

/** Prints a check's line (and its problems) and says whether it passed. */
function report(check: string, detail: string, problems: readonly string[]): boolean {
  if (problems.length === 0) {
    console.log(`${PREFIX} ${check}: ok - ${detail}`);
    return true;
  }
  console.log(`${PREFIX} ${check}: FAILED - ${problems.length} problem(s); ${detail}`);
  for (const problem of problems) console.log(`    ${problem}`);
  return false;
}

async function main(): Promise<boolean> {
  const work = await mkdtemp(join(tmpdir(), "lookup-knowledge-package-check-"));
  try {
    const tarball = resolve(argument("--tarball") ?? (await packTarball(work)));
    const listing = (await run("tar", ["-tzf", tarball], { maxBuffer: MAX_BUFFER })).stdout
      .split("\n")
      .filter((line) => line !== "" && !line.endsWith("/"))
      .map((line) => line.replace(/^package\//, ""));
    await run("tar", ["-xzf", tarball, "-C", work]);
    const root = join(work, "package");
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as PackedManifest;
    const tracked = new Set(
      (await run("git", ["ls-files", "-z"], { cwd: REPO, maxBuffer: MAX_BUFFER })).stdout.split("\0").filter(Boolean),
    );

    const files = new Set(listing);
    const pages = new Map<string, string>();
    for (const file of listing.filter((path) => path.endsWith(".md")))
      pages.set(file, await readFile(join(root, file), "utf8"));

    const okManifest = report(
      "metadata",
      `${manifest.name}@${manifest.version}, ${repositoryUrl(manifest)}`,
      manifestProblems(manifest),
    );
    const shipped = [...new Set(listing.map((file) => file.split("/")[0]))].sort().join(", ");
    const okContents = report(
      "contents",
      `${listing.length} files (${shipped})`,
      contentProblems(listing, manifest, tracked),
    );
    const links = linkProblems({ pages, files, repositoryUrl: repositoryUrl(manifest), tracked });
    const okLinks = report(
      "links",
      `${links.checked} links in ${pages.size} pages resolve; ${links.external} to other sites not followed`,
      links.problems,
    );
    return okManifest && okContents && okLinks;
  } finally {
    if (process.argv.includes("--keep")) console.log(`${PREFIX} kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (passed) => {
    console.log(`${PREFIX} ${passed ? "all checks passed" : "some checks failed"}`);
    process.exitCode = passed ? 0 : 1;
  },
  (error: unknown) => {
    console.log(`${PREFIX} crashed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
