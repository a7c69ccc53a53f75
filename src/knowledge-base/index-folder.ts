import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import {
  classifyEntry,
  INDEX_FILES,
  isGenerationName,
  LEGACY_DATA_FILES,
  SCRATCH_PREFIX,
  writerMarkerName,
} from "./index-layout.js";
import { sweepDeadScratch } from "./scratch-folders.js";
import { INDEX_FORMAT_VERSION } from "./manifest.js";

/** Generations this process is writing now; its own markers of any other generation are stale. */
const writingHere = new Set<string>();
/** The data files every flat-layout (format 1) index holds. */
const LEGACY_CORE = new Set<string>(LEGACY_DATA_FILES.slice(0, 3));

/** True while the save that wrote this marker may still be running. */
function writerAlive(generation: string, pid: number): boolean {
  if (pid === process.pid) return writingHere.has(generation);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What `manifest.json` says now. */
interface ManifestState {
  /** `unknown` when the file exists but cannot be read or parsed: then no generation may go. */
  found: "none" | "unknown" | "read";
  ours: boolean;
  current: boolean;
  generation: string | null;
}

async function currentManifest(dir: string): Promise<ManifestState> {
  let fields: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, INDEX_FILES.manifest), "utf8"));
    fields = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  } catch (error) {
    const found = (error as NodeJS.ErrnoException).code === "ENOENT" ? "none" : "unknown";
    return { found, ours: false, current: false, generation: null };
  }
  const ours = fields.format === "lookup-knowledge-index";
  const current = ours && fields.formatVersion === INDEX_FORMAT_VERSION;
  // The live generation of an older format stays until a save of this format commits.
  const generation =
    ours && typeof fields.generation === "string" && isGenerationName(fields.generation) ? fields.generation : null;
  return { found: "read", ours, current, generation };
}

/**
 * The generation `manifest.json` commits now: null when there is no manifest, `undefined` when it
 * cannot be read or names none (another format, damaged).
 */
export async function committedGeneration(dir: string): Promise<string | null | undefined> {
  const manifest = await currentManifest(dir);
  if (manifest.found === "none") return null;
  return manifest.generation ?? undefined;
}

/**
 * Refuses a folder that is not an index: a file, or a non-empty folder holding neither a
 * lookup-knowledge `manifest.json` nor anything a save creates (so that `--out .` never overwrites
 * a web app's own `manifest.json`). A missing or empty folder is fine.
 * @throws LookupKnowledgeError `INDEX_WRITE_FAILED`.
 */
export async function assertIndexFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (info === null) return;
  if (!info.isDirectory())
    throw new LookupKnowledgeError("INDEX_WRITE_FAILED", `cannot write an index to "${dir}": it is not a folder.`);
  // The writer lock and scratch folders come before the first save's files.
  const names = (await readdir(dir)).filter((name) => !["lock", "scratch"].includes(classifyEntry(name).kind));
  if (names.length === 0 || (await currentManifest(dir)).ours) return;
  const kinds = names.map((name) => classifyEntry(name).kind);
  const legacyCore = names.filter((name) => LEGACY_CORE.has(name)).length;
  if (kinds.includes("generation") || kinds.includes("writer") || legacyCore === LEGACY_CORE.size) return;
  const why = names.includes(INDEX_FILES.manifest)
    ? `its ${INDEX_FILES.manifest} is not a lookup-knowledge manifest`
    : `it holds no ${INDEX_FILES.manifest}`;
  throw new LookupKnowledgeError(
    "INDEX_WRITE_FAILED",
    `refusing to write an index into "${dir}": the folder is not empty and is not a lookup-knowledge index (${why}). Choose an empty or new folder.`,
  );
}

/** Marks `generation` as being written by this process, before its folder exists. */
export async function markWriting(dir: string, generation: string): Promise<void> {
  writingHere.add(generation);
  try {
    await writeFile(join(dir, writerMarkerName(generation, process.pid)), "", { flag: "wx" });
  } catch (error) {
    writingHere.delete(generation);
    throw error;
  }
}

/** Ends {@link markWriting}: after the commit, or after the partial generation was removed. */
export async function unmarkWriting(dir: string, generation: string): Promise<void> {
  try {
    await rm(join(dir, writerMarkerName(generation, process.pid)), { force: true });
  } finally {
    writingHere.delete(generation);
  }
}

/**
 * Removes what earlier saves left behind, and only that: generation folders that the manifest
 * does not name and that no running save is writing, writer markers of saves that are gone,
 * scratch folders of loads whose process is gone, temporaries of the flat layout, and its data
 * files once the manifest is of the current format.
 * While `manifest.json` exists but cannot be read or parsed, no generation is removed.
 * Markers are read before the manifest: a save commits before it drops its marker, so a
 * generation seen unmarked here was committed already and the manifest read after names it or a
 * newer one. Calls `onRemoved` after each removal; returns what could not be removed, and why.
 */
export async function collectGarbage(dir: string, onRemoved: (name: string) => void): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    return [`cannot list "${dir}" (${errorMessage(error)})`];
  }
  const busy = new Set<string>();
  const staleMarkers: string[] = [];
  for (const name of names) {
    const entry = classifyEntry(name);
    if (entry.kind !== "writer") continue;
    if (writerAlive(entry.generation, entry.pid)) busy.add(entry.generation);
    else staleMarkers.push(name);
  }
  const manifest = await currentManifest(dir);
  const garbage = names.filter((name) => {
    const { kind } = classifyEntry(name);
    // A lock moved aside by a take-over whose process died before removing it.
    const aside = kind === "lock" ? /^\.lookup-knowledge\.lock\.stale-([1-9][0-9]{0,9})-/.exec(name) : null;
    if (aside !== null) return Number(aside[1]) !== process.pid && !writerAlive("", Number(aside[1]));
    if (kind === "generation") return manifest.found !== "unknown" && name !== manifest.generation && !busy.has(name);
    return kind === "legacy-temporary" || (kind === "legacy-data" && manifest.current);
  });
  const problems: string[] = [];
  for (const name of [...garbage, ...staleMarkers]) {
    const removed = await rm(join(dir, name), { recursive: true, force: true }).then(
      () => true,
      (error: unknown) => (problems.push(`cannot remove "${join(dir, name)}" (${errorMessage(error)})`), false),
    );
    if (removed) onRemoved(name);
  }
  await sweepDeadScratch(SCRATCH_PREFIX, dir, onRemoved);
  return problems;
}
