/** The line that opens and closes a frontmatter: gray-matter's default delimiter. */
export const FRONTMATTER_FENCE = "---";

/**
 * True when gray-matter reads `text` as opening a frontmatter: it starts with `---` (what
 * `matter.test` checks, here without building gray-matter's defaults for it) and no fourth dash
 * follows (gray-matter's rule for a file without frontmatter). For any other text without a byte
 * order mark gray-matter returns no data and the text unchanged as content, so the caller can
 * return that without calling it.
 */
export function opensFrontmatter(text: string): boolean {
  return text.startsWith(FRONTMATTER_FENCE) && text.charAt(FRONTMATTER_FENCE.length) !== "-";
}
