import type { AccessScope } from "../access/access-scope.js";
import { UNLABELLED_ONLY, type ServedScope } from "./group-scope.js";
import type { TokenAudience } from "./token-file.js";

/** A bearer token with the scope its callers read as, resolved. */
export interface ScopedToken {
  token: string;
  scope: ServedScope;
}

/**
 * The scope of a caller nothing else names: `--group` (null for `--group '*'`), else only
 * documents without an access label. Full access is asked for, never the default.
 */
export function serverScope(flag: AccessScope | null | undefined): ServedScope {
  return flag === undefined ? UNLABELLED_ONLY : flag;
}

/** Each token's scope: its line's groups (or `*`), else the server's. */
export function scopedTokens(tokens: readonly TokenAudience[], server: ServedScope): ScopedToken[] {
  return tokens.map(({ token, scope }) => ({ token, scope: scope === undefined ? server : scope }));
}

/** The key two callers of the same scope share (one tool per key). */
export function scopeKey(scope: ServedScope): string {
  return scope === null ? "*" : JSON.stringify([...new Set(scope.groups)].sort());
}

/** Most scopes one summary line names; the rest are counted. */
const NAMED_SCOPES = 5;
const plural = (n: number, one: string, many: string) => (one === many ? one : `${n} ${n === 1 ? one : many}`);

/**
 * One line per kind of scope for the startup log (pure): how many callers read every document,
 * how many only unlabelled ones, and which group scopes the rest read as. Never a token.
 * `who` names the callers, singular and plural ("token", "tokens"); the same word twice is not
 * counted ("every caller", for a server without tokens).
 */
export function scopeSummary(scopes: readonly ServedScope[], who: readonly [string, string]): string[] {
  const everything = scopes.filter((scope) => scope === null).length;
  const unlabelled = scopes.filter((scope) => scope !== null && scope.groups.length === 0).length;
  const grouped = new Map<string, number>();
  for (const scope of scopes)
    if (scope !== null && scope.groups.length > 0) {
      const key = [...new Set(scope.groups)].sort().join(" ");
      grouped.set(key, (grouped.get(key) ?? 0) + 1);
    }
  const lines: string[] = [];
  if (everything > 0) lines.push(`${plural(everything, ...who)}: every document (groups *)`);
  if (unlabelled > 0)
    lines.push(
      `${plural(unlabelled, ...who)}: only documents without an access label (no groups; give --group, groups on the token's line, or * for every document)`,
    );
  if (grouped.size > 0) {
    const named = [...grouped].slice(0, NAMED_SCOPES).map(([groups, n]) => `[${groups}] ${n}`);
    const more = grouped.size > NAMED_SCOPES ? `, and ${grouped.size - NAMED_SCOPES} more` : "";
    const callers = [...grouped.values()].reduce((sum, n) => sum + n, 0);
    lines.push(
      `${plural(callers, ...who)}: their groups, ${plural(grouped.size, "scope", "scopes")} (${named.join(", ")}${more})`,
    );
  }
  return lines;
}
