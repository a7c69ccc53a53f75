import { applyScope, MAX_GROUP_CHARS, type AccessScope } from "../access/access-scope.js";
import { usageError } from "./command-spec.js";
import { ALL_GROUPS } from "./group-scope.js";

/** Environment variable holding the bearer token HTTP clients must send. */
export const MCP_TOKEN_ENV = "LOOKUP_KNOWLEDGE_MCP_TOKEN";

/**
 * One bearer token of `serve --http` and the scope its callers get: its groups; null for every
 * document (`*` on its line); undefined for the server's scope (`--group`, else only documents
 * without an access label).
 */
export interface TokenAudience {
  token: string;
  scope: AccessScope | null | undefined;
}

/** Most tokens one file may hold. */
export const MAX_TOKENS = 1000;
/** Fewest characters of a token: anything shorter is guessable. */
export const MIN_TOKEN_CHARS = 16;

/** Most characters of a token. */
export const MAX_TOKEN_CHARS = 4096;

/** What makes `token` unusable as a bearer token (short, long, not printable ASCII), or null. */
export function tokenProblem(token: string): string | null {
  if (token.length < MIN_TOKEN_CHARS)
    return `a token needs at least ${MIN_TOKEN_CHARS} characters (e.g. \`openssl rand -hex 16\`)`;
  if (token.length > MAX_TOKEN_CHARS) return `a token may have at most ${MAX_TOKEN_CHARS} characters`;
  if (!/^[\x21-\x7e]+$/.test(token))
    return "a token may hold printable ASCII characters only (no spaces or control characters)";
  return null;
}

/** Control, format (bidi) and other invisible characters, refused in group names of a token file. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u;

/**
 * Parses a token file: one token per line, then, separated by spaces, the groups its callers
 * read as (none: the server's scope, `--group` or else only documents without an access label;
 * `*` alone: every document); blank lines and lines starting with `#` are ignored. Errors name
 * the line, never its text (it holds a secret).
 * @example
 * # token                            groups
 * 9f2c7d0e4b8a41f6a3c5e7d9b1f3a5c7   support billing
 * 1e3b5d7f9a2c4e6b8d0f2a4c6e8b0d2f
 * 5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b   *
 * @throws LookupKnowledgeError `USAGE` for an empty file, a short or repeated token, a bad group.
 */
export function parseTokenFile(text: string, file: string): TokenAudience[] {
  const where = (line: number) => `--token-file ${JSON.stringify(file)} line ${line}`;
  const seen = new Map<string, number>();
  const audiences: TokenAudience[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const fields = lines[i]
      .trim()
      .split(/\s+/)
      .filter((field) => field.length > 0);
    if (fields.length === 0 || fields[0].startsWith("#")) continue;
    const [token, ...groups] = fields;
    const problem = tokenProblem(token);
    if (problem !== null) throw usageError("serve", `${where(i + 1)}: ${problem}.`);
    const earlier = seen.get(token);
    if (earlier !== undefined)
      throw usageError(
        "serve",
        `${where(i + 1)} repeats the token of line ${earlier}; give each audience its own token.`,
      );
    seen.set(token, i + 1);
    let scope: AccessScope | null | undefined;
    if (groups.some((group) => INVISIBLE.test(group)))
      throw usageError("serve", `${where(i + 1)}: a group name holds a control or invisible character.`);
    if (groups.includes(ALL_GROUPS)) {
      if (groups.length > 1)
        throw usageError(
          "serve",
          `${where(i + 1)}: '${ALL_GROUPS}' reads every document and stands alone on its line.`,
        );
      scope = null;
    } else if (groups.length > 0) {
      const checked = applyScope({ groups });
      if (typeof checked === "string")
        throw usageError("serve", `${where(i + 1)}: a group name needs 1 to ${MAX_GROUP_CHARS} characters.`);
      scope = { groups: checked.groups };
    }
    audiences.push({ token, scope });
    if (audiences.length > MAX_TOKENS)
      throw usageError("serve", `--token-file ${JSON.stringify(file)} holds more than ${MAX_TOKENS} tokens.`);
  }
  if (audiences.length === 0)
    throw usageError(
      "serve",
      `--token-file ${JSON.stringify(file)} holds no token; put one per line (then, optionally, its groups).`,
    );
  return audiences;
}
