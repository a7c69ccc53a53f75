import { posix } from "node:path";
import { extractLinks, linkKind, pageAnchors, splitTarget } from "./markdown-links.js";

/** The shipped Markdown pages and what the links of those pages may point at. */
export interface LinkContext {
  /** Every Markdown page of the tarball, by its path in the package (`docs/cli.md`), with its text. */
  pages: ReadonlyMap<string, string>;
  /** Every file of the tarball, by its path in the package. */
  files: ReadonlySet<string>;
  /** The repository's web address (`https://github.com/owner/name`), or null when package.json has none. */
  repositoryUrl: string | null;
  /** The files the repository tracks, for links to the repository (`<repositoryUrl>/blob/main/<path>`). */
  tracked: ReadonlySet<string>;
}

/** What the links of a page resolve to, and how many could not be checked offline. */
export interface LinkReport {
  /** One line per broken link: page, line, target and why. */
  problems: string[];
  /** Links checked (relative, in-page and to the repository). */
  checked: number;
  /** Links to other hosts, which this offline check cannot follow. */
  external: number;
}

/** Folders of the package: every ancestor of a file. */
function folders(files: ReadonlySet<string>): Set<string> {
  const result = new Set<string>();
  for (const file of files) {
    let dir = posix.dirname(file);
    while (dir !== "." && !result.has(dir)) {
      result.add(dir);
      dir = posix.dirname(dir);
    }
  }
  return result;
}

/** Where a link to the repository points: its front page (or issues, releases), a tracked path, or nowhere known. */
type RepositoryTarget = { kind: "page" } | { kind: "path"; path: string } | { kind: "unknown" };

/** What a link names in the repository (`blob/<ref>/<path>` or `tree/<ref>/<path>`), or null when it is another site. */
function repositoryTarget(target: string, repositoryUrl: string): RepositoryTarget | null {
  if (!target.toLowerCase().startsWith(repositoryUrl.toLowerCase())) return null;
  const rest = target.slice(repositoryUrl.length).split("#")[0].replace(/\/$/, "");
  if (rest === "" || rest === "/issues" || rest.startsWith("/issues/") || rest === "/releases") return { kind: "page" };
  const match = /^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(rest);
  return match === null ? { kind: "unknown" } : { kind: "path", path: decodeURIComponent(match[1]) };
}

/** Whether the repository tracks a file at `path` or files below it. */
function isTracked(tracked: ReadonlySet<string>, path: string): boolean {
  return tracked.has(path) || [...tracked].some((file) => file.startsWith(`${path}/`));
}

/**
 * Checks every link of every shipped page: a relative link must name a file or folder of the
 * tarball (and its anchor a heading of that page), an in-page anchor a heading of the page, and a
 * link to the repository a file the repository tracks.
 */
export function linkProblems(context: LinkContext): LinkReport {
  const dirs = folders(context.files);
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string, text: string) => {
    let set = anchorsOf.get(path);
    if (set === undefined) anchorsOf.set(path, (set = pageAnchors(text)));
    return set;
  };
  const report: LinkReport = { problems: [], checked: 0, external: 0 };
  const fail = (page: string, line: number, target: string, why: string) =>
    report.problems.push(`${page}:${line}: link "${target}" ${why}`);

  for (const [page, text] of context.pages) {
    for (const { target, line } of extractLinks(text)) {
      const kind = linkKind(target);
      if (kind === "other") continue;
      if (kind === "absolute") {
        const inRepository = context.repositoryUrl === null ? null : repositoryTarget(target, context.repositoryUrl);
        if (inRepository === null) {
          report.external += 1;
          continue;
        }
        report.checked += 1;
        if (inRepository.kind === "unknown")
          fail(page, line, target, "points into the repository but names no blob/ or tree/ path");
        else if (inRepository.kind === "path" && !isTracked(context.tracked, inRepository.path))
          fail(page, line, target, `names ${inRepository.path}, which the repository does not track`);
        continue;
      }
      report.checked += 1;
      const { path, anchor } = splitTarget(target);
      const resolved = path === "" ? page : posix.normalize(posix.join(posix.dirname(page), path)).replace(/\/$/, "");
      if (resolved.startsWith("..")) {
        fail(page, line, target, "leaves the package");
        continue;
      }
      if (!context.files.has(resolved) && !dirs.has(resolved)) {
        fail(page, line, target, `names ${resolved}, which the package does not ship`);
        continue;
      }
      if (anchor === null || anchor === "") continue;
      const linked = context.pages.get(resolved);
      if (linked === undefined) fail(page, line, target, `has an anchor, but ${resolved} is not a Markdown page`);
      else if (!anchors(resolved, linked).has(anchor))
        fail(page, line, target, `names #${anchor}, a heading ${resolved} does not have`);
    }
  }
  return report;
}
