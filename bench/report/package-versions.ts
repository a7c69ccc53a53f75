import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../dataset/load-scifact.js";

/** Packages whose versions explain the figures. */
export const MEASURED_PACKAGES = [
  "@langchain/core",
  "@langchain/langgraph",
  "@langchain/community",
  "@langchain/classic",
  "flexsearch",
  "hnswlib-node",
  "tsx",
] as const;

function versionOf(packageJson: string): string {
  try {
    return (JSON.parse(readFileSync(packageJson, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "not installed";
  }
}

/** Installed versions (read from node_modules, not the ranges in package.json), with ours first. */
export function packageVersions(): Record<string, string> {
  const out: Record<string, string> = { "lookup-knowledge": versionOf(join(REPO_ROOT, "package.json")) };
  for (const name of MEASURED_PACKAGES) out[name] = versionOf(join(REPO_ROOT, "node_modules", name, "package.json"));
  return out;
}
