import { applyScope, MAX_GROUP_CHARS, type AccessScope } from "../access/access-scope.js";
import { usageError } from "./command-spec.js";

/**
 * The scope `--group` names (each value trimmed), or undefined without the flag.
 * @throws LookupKnowledgeError `USAGE` for a group name that is blank or too long.
 */
export function groupScope(command: string, groups: readonly string[] | undefined): AccessScope | undefined {
  if (groups === undefined || groups.length === 0) return undefined;
  const checked = applyScope({ groups });
  if (typeof checked === "string")
    throw usageError(
      command,
      `--group needs a group name of 1 to ${MAX_GROUP_CHARS} characters: ${checked.replace(/^group/, "value")}.`,
    );
  return { groups: checked.groups };
}
