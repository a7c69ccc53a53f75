import { capText, sliceWhole } from "../text/cap-text.js";
import type { EvidenceBlock, L0Hints } from "../types.js";

/** Longest title, heading, hint or hit reason the artifact and the tool's text carry. */
export const MAX_FIELD_CHARS = 200;
/** Most entries of a hint list, and most hint hit reasons (title, alias, keyword, entity) of a block. */
export const MAX_LIST_ITEMS = 20;

/** Caps on the corpus text a lookup returns. */
export interface EvidenceCaps {
  /** Characters of one block's content. */
  maxBlockChars: number;
  /** Characters of all blocks' content together; later blocks get what earlier ones left. */
  maxTotalChars: number;
}

const HINT_REASON = /^L0:(title|alias|keyword|entity|domain):/;

function capList(items: readonly string[]): string[] {
  return items.slice(0, MAX_LIST_ITEMS).map((item) => capText(item, MAX_FIELD_CHARS));
}

/**
 * Hint lists cut to {@link MAX_LIST_ITEMS} entries of at most {@link MAX_FIELD_CHARS} characters;
 * `domainEvidence` (kept when present) the same, its domains cut like `domains`.
 */
export function boundHints(hints: L0Hints): L0Hints {
  const bounded: L0Hints = {
    titles: capList(hints.titles),
    keywords: capList(hints.keywords),
    domains: capList(hints.domains),
    entities: capList(hints.entities),
  };
  if (hints.domainEvidence !== undefined) {
    bounded.domainEvidence = hints.domainEvidence
      .slice(0, MAX_LIST_ITEMS)
      .map(({ domain, strength, files }) => ({ domain: capText(domain, MAX_FIELD_CHARS), strength, files }));
  }
  return bounded;
}

/**
 * Hit reasons with every entry cut to {@link MAX_FIELD_CHARS} characters. Hint reasons beyond
 * {@link MAX_LIST_ITEMS} are replaced by one `L0:more_hints:<n>`; body, BM25 and L1 reasons are
 * always kept, since programs read them (`L1:domain_filter:…`).
 */
export function boundHitReasons(reasons: readonly string[]): string[] {
  let hints = 0;
  const kept: string[] = [];
  for (const reason of reasons) {
    if (HINT_REASON.test(reason) && ++hints > MAX_LIST_ITEMS) continue;
    kept.push(capText(reason, MAX_FIELD_CHARS));
  }
  if (hints > MAX_LIST_ITEMS) kept.push(`L0:more_hints:${hints - MAX_LIST_ITEMS}`);
  return kept;
}

/** Where to cut `content` to at most `max` characters: at a line or word end when one is close. */
function cutContent(content: string, max: number): string {
  const head = sliceWhole(content, max);
  const floor = Math.floor(max * 0.8);
  const line = head.lastIndexOf("\n");
  if (line >= floor) return head.slice(0, line);
  const space = head.lastIndexOf(" ");
  return space >= floor ? head.slice(0, space) : head;
}

/**
 * Applies the caps to a ranked list of blocks (pure): titles, headings and hit reasons are
 * bounded, each content is cut to `maxBlockChars`, and the contents together to
 * `maxTotalChars` in rank order. A cut block says so in `truncated`.
 */
export function boundEvidence<T extends EvidenceBlock>(
  blocks: readonly T[],
  caps: EvidenceCaps,
): { blocks: T[]; truncated: boolean } {
  let budget = caps.maxTotalChars;
  let truncated = false;
  const bounded = blocks.map((block) => {
    const allowed = Math.max(0, Math.min(caps.maxBlockChars, budget));
    const content = block.content.length > allowed ? cutContent(block.content, allowed) : block.content;
    budget -= content.length;
    const cut = content.length < block.content.length;
    truncated ||= cut;
    const { truncated: _previous, ...rest } = block;
    return {
      ...rest,
      ...(block.title !== undefined ? { title: capText(block.title, MAX_FIELD_CHARS) } : {}),
      ...(block.breadcrumb !== undefined
        ? { breadcrumb: block.breadcrumb.map((heading) => capText(heading, MAX_FIELD_CHARS)) }
        : {}),
      hitReasons: boundHitReasons(block.hitReasons),
      content,
      ...(cut ? { truncated: { shownChars: content.length, totalChars: block.content.length } } : {}),
    } as T;
  });
  return { blocks: bounded, truncated };
}
