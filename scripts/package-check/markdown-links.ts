/**
 * The links of a Markdown page and the anchors its headings give, as a package page renders them:
 * pure functions over the page's text, used by `check-package.ts` to prove that every link of the
 * shipped README and docs resolves inside the tarball.
 */

/** One link of a page: where it points and the line it is on (1-based). */
export interface MarkdownLink {
  /** The link's destination as written (`docs/cli.md#query`, `https://...`, `#options`). */
  target: string;
  /** The line of the page the link is on. */
  line: number;
}

/** How a link's destination is resolved. */
export type LinkKind = "anchor" | "relative" | "absolute" | "other";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^()\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_ANCHOR = /<a\s+[^>]*(?:id|name)\s*=\s*["']([^"']+)["']/gi;
const HTML_HREF = /<a\s+[^>]*href\s*=\s*["']([^"']+)["']/gi;
const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;

/** Each line of the page with fenced code blocks blanked, so that code never counts as a link or heading. */
function proseLines(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  let fence: string | null = null;
  return lines.map((line) => {
    const match = FENCE.exec(line);
    if (fence === null) {
      if (match !== null) {
        fence = match[1][0].repeat(match[1].length);
        return "";
      }
      return line;
    }
    if (match !== null && match[1][0] === fence[0] && match[1].length >= fence.length && line.trim() === match[1]) {
      fence = null;
    }
    return "";
  });
}

/** A line with its code spans replaced by a placeholder (a link written inside backticks is code). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => (span.includes("](") ? "code" : span.replace(/`/g, "")));
}

/** Every link of the page: inline links and images, reference definitions and HTML `href`s. */
export function extractLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const push = (target: string) => links.push({ target: target.replace(/^<|>$/g, ""), line: index + 1 });
    for (const match of line.matchAll(INLINE_LINK)) push(match[1]);
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition !== null) push(definition[1]);
    for (const match of line.matchAll(HTML_HREF)) push(match[1]);
  });
  return links;
}

/**
 * The anchor a heading's text gets on a rendered package page: lower case, inline Markdown reduced
 * to its text, every character that is not a letter, digit, space, hyphen or underscore dropped,
 * and each space a hyphen.
 */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every anchor of the page: heading slugs (a repeated slug gets `-1`, `-2`, ...) and HTML `id`/`name`s. */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = ATX_HEADING.exec(line);
    if (heading !== null) {
      const slug = headingSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(HTML_ANCHOR)) anchors.add(match[1]);
  }
  return anchors;
}

/** How a link resolves: within the page, to a file beside it, to a URL, or something else (`mailto:`). */
export function linkKind(target: string): LinkKind {
  if (target.startsWith("#")) return "anchor";
  if (/^https?:\/\//i.test(target)) return "absolute";
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return "other";
  return "relative";
}

/** A relative link split into its path (percent-decoded, without a query) and its anchor. */
export function splitTarget(target: string): { path: string; anchor: string | null } {
  const hash = target.indexOf("#");
  const beforeHash = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const path = decodeURIComponent(beforeHash.split("?")[0]);
  return { path, anchor };
}
