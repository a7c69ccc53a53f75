/** GitHub-style heading slug: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(heading: string): string {
  const slug = heading
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s+/g, "-");
  return slug.length > 0 ? slug : "section";
}

/** Hands out unique slugs within one document: a repeated heading gets `-1`, `-2`, ... */
export function createSlugger(): (heading: string) => string {
  const used = new Set<string>();
  return (heading) => {
    const base = slugify(heading);
    let slug = base;
    for (let i = 1; used.has(slug); i++) slug = `${base}-${i}`;
    used.add(slug);
    return slug;
  };
}
