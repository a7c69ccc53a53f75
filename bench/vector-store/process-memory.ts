import { readFile } from "node:fs/promises";
import type { MemorySnapshot, ServerMemory } from "./sizing-spec.js";

/** True when the process runs with `--expose-gc`. */
export function gcAvailable(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === "function";
}

/** Two forced collections (when `--expose-gc` allows), then `process.memoryUsage()`. */
export function settledMemory(): MemorySnapshot {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
}

/** Peak resident set of this process, bytes (`maxRSS` is in KiB). */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Resident and peak resident set of another process from `/proc/<pid>/status` (Linux); nulls elsewhere. */
export async function processMemory(pid: number): Promise<ServerMemory> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
      return match ? Number(match[1]) * 1024 : null;
    };
    return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
  } catch {
    return { rssBytes: null, peakRssBytes: null };
  }
}
