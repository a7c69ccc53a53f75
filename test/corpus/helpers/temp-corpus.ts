/**
 * Temp corpus folders for the corpus tests: files written from a path → content map, FIFOs and
 * sockets made for real, and `loadCorpus` run as the unprivileged `nobody` user when the tests run
 * as root (root reads files whatever their permissions, so an unreadable file needs another user).
 */
import { execFileSync, spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadedCorpus } from "../../../src/corpus/load-corpus.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CHILD = join(REPO_ROOT, "test/corpus/helpers/load-corpus-child.ts");

/** Uid and gid of `nobody`, used when the tests run as root. */
export const NOBODY = 65534;

/** True when the tests run as root, so that permissions are not enforced for this process. */
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** Temp folders made by one test file; `cleanup` removes all of them. */
export function createTempCorpora(prefix = "lk-corpus-") {
  const made: string[] = [];
  const servers: Server[] = [];
  return {
    /** A new empty folder, readable by everyone (so that a child running as nobody can list it). */
    async make(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      await chmod(dir, 0o755);
      made.push(dir);
      return dir;
    },
    /** Writes `files` (relative path → content) below `dir`, creating folders as needed. */
    async write(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), content);
      }
    },
    /** Makes a named pipe at `path`. */
    fifo(path: string): void {
      execFileSync("mkfifo", [path]);
    },
    /** Makes a listening Unix socket at `path`; it is closed by `cleanup`. */
    async socket(path: string): Promise<void> {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((done) => server.listen(path, done));
    },
    async cleanup(): Promise<void> {
      await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/**
 * Runs `loadCorpus(dir)` in a child process, as `nobody` when this process is root, so that
 * file permissions apply. Resolves with what the child loaded, or rejects with its stderr.
 */
export function loadCorpusAsUnprivileged(dir: string): Promise<LoadedCorpus> {
  return new Promise((done, fail) => {
    const ids = RUNNING_AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {};
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, dir], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], ...ids });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done(JSON.parse(stdout) as LoadedCorpus) : fail(new Error(`child exited ${code}: ${stderr}`))));
  });
}
