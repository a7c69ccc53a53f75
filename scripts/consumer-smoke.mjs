#!/usr/bin/env node
// Consumer smoke test: packs this repository as npm would publish it, installs the tarball into a
// fresh app made from test/consumer/app (with its own @langchain/core ~1.3.5), and proves that
// the tarball's metadata, files and shipped links hold (scripts/package-check/check-package.ts),
// that the install is clean (no ERESOLVE / EBADENGINE / peer warnings about our package), that there is
// one copy of @langchain/core and of @langchain/langgraph, that strict `tsc` accepts the tool in
// `createAgent` and `ToolNode`, that one agent call returns evidence, that the app imports and
// uses both entry points (`lookup-knowledge` and `lookup-knowledge/eval`, with no promptfoo
// installed), and that the installed bin answers `--version`.
//
// Usage: node scripts/consumer-smoke.mjs [--keep]
//   --keep  leave the temporary folder (tarball, app, logs) in place and print its path.
// Prints one line per step, "[consumer-smoke] <step>: ok|FAILED in <s>s - <detail>", then a
// summary line; exits 1 at the first failed step, after printing the tail of its output.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TEMPLATE = join(REPO, "test", "consumer", "app");
const CHECK_PACKAGE = join(REPO, "scripts", "package-check", "check-package.ts");
const PREFIX = "[consumer-smoke]";
/** Lines of a failed command's output shown with the failure. */
const TAIL_LINES = 60;
/** The packages whose single copy the app must end up with. */
const SINGLE_COPY = ["@langchain/core", "@langchain/langgraph"];
const KEEP = process.argv.includes("--keep");

/**
 * The environment of the child commands: ours, minus what `npm run` / `npx` put there for the
 * repository (`npm_config_call` would make `npx tsc` run the parent's command, `local_prefix`
 * would point npm at the repository), so the app's npm behaves as in a user's shell.
 */
function childEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    const lower = key.toLowerCase();
    const repoBound = ["npm_config_call", "npm_config_local_prefix", "npm_config_allow_scripts", "init_cwd"].includes(
      lower,
    );
    if (repoBound || (lower.startsWith("npm_") && !lower.startsWith("npm_config_"))) delete env[key];
  }
  return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", NO_UPDATE_NOTIFIER: "1" };
}

/** Runs a command; resolves with its exit code and its stdout and stderr, interleaved as they came. */
function run(command, args, cwd) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (data) => (output += data));
    child.stderr.on("data", (data) => (output += data));
    child.on("error", reject);
    child.on("close", (code, signal) => resolvePromise({ code: code ?? 1, signal, output }));
  });
}

/** A failed step: its message, and the output to show with it. */
class StepError extends Error {
  constructor(message, output = "") {
    super(message);
    this.output = output;
  }
}

/** Runs a command and fails the step if it exits non-zero. */
async function runOrFail(command, args, cwd) {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new StepError(`\`${[command, ...args].join(" ")}\` exited ${result.signal ?? result.code}`, result.output);
  return result.output;
}

const tail = (text) =>
  text
    .trimEnd()
    .split("\n")
    .slice(-TAIL_LINES)
    .map((line) => `    | ${line}`)
    .join("\n");
const seconds = (ms) => (ms / 1000).toFixed(1);

/** Runs one step, prints its line, and returns its result; exits on failure. */
async function step(name, body) {
  const started = performance.now();
  try {
    const { detail, notes = [], value } = await body();
    console.log(`${PREFIX} ${name}: ok in ${seconds(performance.now() - started)}s - ${detail}`);
    for (const note of notes) console.log(`    note: ${note}`);
    return value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.log(`${PREFIX} ${name}: FAILED in ${seconds(performance.now() - started)}s - ${message}`);
    if (error instanceof StepError && error.output.trim() !== "") console.log(tail(error.output));
    throw new StepError(`${name} failed`);
  }
}

/** The names whose appearance in an npm warning makes it ours: the package, its dependencies and peers. */
async function ourNames() {
  const manifest = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
  return [manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
}

/**
 * Sorts the install output's warnings. Fatal: any ERESOLVE or EBADENGINE line, any warning
 * naming lookup-knowledge, any peer-dependency warning naming one of our dependencies or peers,
 * and an install-script notice naming hnswlib-node (the app's `allowScripts` approves it, so a
 * notice means the policy did not apply). Other warnings (deprecations deep in LangChain's tree)
 * are reported, not fatal.
 */
function classifyInstallOutput(output, names) {
  const fatal = [];
  const other = [];
  const lines = output.split("\n").map((line) => line.trimEnd());
  for (const line of lines) {
    const lower = line.toLowerCase();
    const warning = /^npm (warn|error)/i.test(line);
    if (/ERESOLVE|EBADENGINE/.test(line)) fatal.push(line);
    else if (warning && lower.includes("lookup-knowledge")) fatal.push(line);
    else if (warning && /peer/i.test(line) && names.some((name) => lower.includes(name.toLowerCase())))
      fatal.push(line);
    else if (/install[- ]scripts?|allowscripts|approve-scripts/i.test(line) && lower.includes("hnswlib-node"))
      fatal.push(line);
    else if (warning) other.push(line);
  }
  return { fatal, other };
}

/** Every installed copy of `name` below `dir`: the package.json versions, by path. */
async function installedCopies(dir, name, found = []) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === "node_modules") {
      const candidate = join(path, ...name.split("/"), "package.json");
      try {
        found.push({ path: dirname(candidate), version: JSON.parse(await readFile(candidate, "utf8")).version });
      } catch {
        // Not installed at this level.
      }
    }
    await installedCopies(path, name, found);
  }
  return found;
}

/** Versions of `name` in an `npm ls --json` tree, deduped entries included. */
function versionsInTree(node, name, versions = new Set()) {
  for (const [depName, dep] of Object.entries(node.dependencies ?? {})) {
    if (depName === name && dep.version) versions.add(dep.version);
    versionsInTree(dep, name, versions);
  }
  return versions;
}

async function main() {
  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), "lookup-knowledge-smoke-"));
  const packDir = join(work, "pack");
  const app = join(work, "app");
  let passed = false;
  try {
    const tarball = await step("pack", async () => {
      await mkdir(packDir);
      // `prepare` runs the build first (tsc: it rewrites dist/ but leaves outputs of deleted sources).
      const output = await runOrFail("npm", ["pack", "--pack-destination", packDir], REPO);
      const tgz = (await readdir(packDir)).filter((file) => file.endsWith(".tgz"));
      if (tgz.length !== 1) throw new StepError(`expected one tarball in ${packDir}, found ${tgz.length}`, output);
      const path = join(packDir, tgz[0]);
      const listing = (await runOrFail("tar", ["-tzf", path], packDir)).split("\n").filter(Boolean);
      const required = ["package/package.json", "package/dist/src/index.js", "package/dist/src/index.d.ts"];
      const missing = required.filter((file) => !listing.includes(file));
      if (missing.length > 0) throw new StepError(`the tarball lacks ${missing.join(", ")}`, output);
      return { detail: `${tgz[0]}, ${listing.length} files`, value: path };
    });

    await step("contents", async () => {
      // The tarball as the package page and node_modules show it: metadata, files, every link.
      const tsx = join(REPO, "node_modules", ".bin", "tsx");
      const output = await runOrFail(tsx, [CHECK_PACKAGE, "--tarball", tarball], REPO);
      const links = /links: ok - ([^\n]*)/.exec(output)?.[1] ?? "links checked";
      return { detail: links };
    });

    await step("install", async () => {
      await cp(TEMPLATE, app, {
        recursive: true,
        filter: (source) => !/[\\/](node_modules|dist|\.tsbuildinfo)$/.test(source),
      });
      const manifestPath = join(app, "package.json");
      const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
      const spec = `file:${tarball}`;
      manifest.dependencies["lookup-knowledge"] = spec;
      // What `npm deny-scripts lookup-knowledge` writes. npm 11 lists the `prepare` of a file:
      // dependency as an unreviewed install script (it never runs it for a tarball, and a registry
      // install does not list it); a user installing the tarball denies it, as here.
      manifest.allowScripts = { ...manifest.allowScripts, [spec]: false };
      await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
      const result = await run("npm", ["install", "--no-audit", "--no-fund"], app);
      await writeFile(join(work, "install.log"), result.output);
      if (result.code !== 0) throw new StepError(`npm install exited ${result.signal ?? result.code}`, result.output);
      const { fatal, other } = classifyInstallOutput(result.output, await ourNames());
      if (fatal.length > 0)
        throw new StepError(
          `${fatal.length} warning line(s) that fail the smoke test (ERESOLVE, EBADENGINE, or naming lookup-knowledge, its dependencies or peers)`,
          fatal.join("\n"),
        );
      const added = /added \d+ packages?[^\n]*/.exec(result.output)?.[0] ?? "installed";
      return {
        detail: `${added}; ${other.length === 0 ? "no warnings" : `${other.length} warning(s) not about lookup-knowledge`}`,
        notes: other,
      };
    });

    await step("dedupe", async () => {
      const details = [];
      for (const name of SINGLE_COPY) {
        const ls = await run("npm", ["ls", name, "--all", "--json"], app);
        // `npm ls` exits 1 on invalid or missing peers; that is a failure too.
        if (ls.code !== 0)
          throw new StepError(
            `\`npm ls ${name} --all\` exited ${ls.code}`,
            (await run("npm", ["ls", name, "--all"], app)).output,
          );
        const versions = [...versionsInTree(JSON.parse(ls.output), name)];
        const copies = await installedCopies(app, name);
        if (versions.length !== 1 || copies.length !== 1) {
          const where = copies.map((copy) => `${copy.path}@${copy.version}`).join(", ");
          throw new StepError(
            `${name}: npm ls shows ${versions.join(", ") || "none"}; copies on disk: ${where || "none"}`,
            (await run("npm", ["ls", name, "--all"], app)).output,
          );
        }
        details.push(`${name}@${versions[0]} (1 copy)`);
      }
      const core = details[0];
      if (!/@1\.3\.\d+ /.test(core)) throw new StepError(`the app asked for @langchain/core ~1.3.5 and got ${core}`);
      return { detail: details.join(", ") };
    });

    await step("typecheck", async () => {
      await runOrFail("npx", ["--no", "--", "tsc", "--noEmit", "-p", "."], app);
      return { detail: "strict tsc --noEmit: 0 errors" };
    });

    await step("build", async () => {
      await runOrFail("npx", ["--no", "--", "tsc", "-p", "."], app);
      return { detail: "dist/agent.js emitted" };
    });

    await step("run", async () => {
      const output = (await runOrFail("node", ["dist/agent.js"], app)).trim();
      return { detail: output.split("\n").at(-1) ?? "" };
    });
    await step("bin", async () => {
      // The CLI as an app's scripts run it: the installed bin, from the app's folder.
      const version = (await runOrFail("npx", ["--no", "--", "lookup-knowledge", "--version"], app)).trim();
      const expected = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")).version;
      if (!version.split("\n").includes(expected))
        throw new StepError(`lookup-knowledge --version printed "${version.slice(0, 200)}", expected ${expected}`);
      return { detail: `npx lookup-knowledge --version: ${expected}` };
    });
    passed = true;
    console.log(`${PREFIX} all steps passed in ${seconds(performance.now() - started)}s`);
  } catch (error) {
    if (!(error instanceof StepError)) throw error;
    console.log(`${PREFIX} ${error.message} after ${seconds(performance.now() - started)}s`);
  } finally {
    if (KEEP) console.log(`${PREFIX} kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
  return passed;
}

main().then(
  (passed) => {
    process.exitCode = passed ? 0 : 1;
  },
  (error) => {
    console.error(`${PREFIX} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
