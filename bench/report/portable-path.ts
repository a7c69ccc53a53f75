import { isAbsolute, relative, sep } from "node:path";
import { REPO_ROOT } from "../dataset/load-scifact.js";

/**
 * A path as a committed result file records it: relative to the repository root, with `/`
 * separators, so that no machine's folder layout (a home folder, a checkout's location) is
 * written into `bench/results`. Pure.
 */
export function portablePath(path: string, root = REPO_ROOT): string {
  if (!isAbsolute(path)) return path.split(sep).join("/");
  const inRoot = relative(root, path);
  return (inRoot === "" ? "." : inRoot).split(sep).join("/");
}
