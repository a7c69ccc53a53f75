/** Longest heading slug, in characters (code points); a repeat suffix `-N` comes on top. */
export const MAX_SLUG_LENGTH = 100;

/** The first `max` code points of `text`, never half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let points = 0; points < max && end < text.length; points++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * GitHub-style heading slug: lower case, punctuation dropped, spaces to hyphens, cut to
 * {@link MAX_SLUG_LENGTH} characters (slugs are part of the source ids the model reads).
 */
export function slugify(heading: string): string {
  const slug = heading
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
  return slug.length > 0 ? cut(slug, MAX_SLUG_LENGTH) : "section";
}

/**
 * Hands out unique slugs within one document: a repeated heading gets `-1`, `-2`, ... (the lowest
 * suffix still free). Each slug's last suffix is remembered, so n repeats cost linear time.
 */
export function createSlugger(): (heading: string) => string {
  const used = new Set<string>();
  const lastSuffix = new Map<string, number>();
  return (heading) => {
    const base = slugify(heading);
    let slug = base;
    if (used.has(slug)) {
      // Every suffix up to the remembered one is taken, so the search resumes after it.
      let suffix = lastSuffix.get(base) ?? 0;
      do slug = `${base}-${++suffix}`;
      while (used.has(slug));
      lastSuffix.set(base, suffix);
    }
    used.add(slug);
    return slug;
  };
}
