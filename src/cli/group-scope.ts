import { applyScope, MAX_GROUP_CHARS, type AccessScope } from "../access/access-scope.js";
import { usageError } from "./command-spec.js";

/** The group list that asks for every document, labelled or not: `--group '*'`, or `*` on a token line. */
export const ALL_GROUPS = "*";

/**
 * What a caller of `serve` (or `query`) reads: a scope, or null for every document (asked for
 * with {@link ALL_GROUPS}). A scope of no groups reads only documents without an access label.
 */
export type ServedScope = AccessScope | null;

/** The scope that reads only documents without an `access` label: what a caller gets when nothing names groups. */
export const UNLABELLED_ONLY: AccessScope = Object.freeze({ groups: Object.freeze([]) });

/**
 * The scope `--group` names (each value trimmed), or undefined without the flag; `*` alone reads
 * every document (null).
 * @throws LookupKnowledgeError `USAGE` for a group name that is blank or too long, or `*` beside other groups.
 */
export function groupScope(command: string, groups: readonly string[] | undefined): AccessScope | undefined | null {
  if (groups === undefined || groups.length === 0) return undefined;
  if (groups.some((group) => group.trim() === ALL_GROUPS)) {
    if (groups.length > 1)
      throw usageError(command, `--group '${ALL_GROUPS}' reads every document and takes no other --group.`);
    return null;
  }
  const checked = applyScope({ groups });
  if (typeof checked === "string")
    throw usageError(
      command,
      `--group needs a group name of 1 to ${MAX_GROUP_CHARS} characters: ${checked.replace(/^group/, "value")}.`,
    );
  return { groups: checked.groups };
}
