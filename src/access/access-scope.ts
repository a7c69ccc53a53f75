import type { RunnableConfig } from "@langchain/core/runnables";
import { createHash } from "node:crypto";
import { LookupKnowledgeError } from "../errors.js";
import type { AppliedScope } from "../types.js";

/** Who is asking: the groups a caller belongs to. A document is readable when its `access` names one of them. */
export interface AccessScope {
  /** Group names, compared exactly (case-sensitive) after trimming. */
  groups: readonly string[];
}

/**
 * Where a lookup's scope comes from: a fixed scope, or a function of the call's `RunnableConfig`
 * (sync or async) that reads the caller from trusted context, e.g. `config.configurable.user`.
 * Never from the model's or an MCP client's arguments.
 */
export type AccessOption = AccessScope | ((config: RunnableConfig) => AccessScope | Promise<AccessScope>);

/**
 * What a file without an `access` field is: `"allow"`, readable by every scope; `"deny"`,
 * readable by no scope (teams that must fail closed label every readable file).
 */
export type UnlabelledPolicy = "allow" | "deny";

export type { AppliedScope } from "../types.js";

/** Longest group name a scope or a label may hold. */
export const MAX_GROUP_CHARS = 256;
/** Most groups one scope may hold. */
export const MAX_SCOPE_GROUPS = 10_000;

/** The `unlabelled` option checked. @throws LookupKnowledgeError `INVALID_OPTION` for anything but "allow", "deny" or undefined. */
export function checkUnlabelled(value: unknown): UnlabelledPolicy | undefined {
  if (value === undefined || value === "allow" || value === "deny") return value;
  throw new LookupKnowledgeError(
    "INVALID_OPTION",
    `option unlabelled must be "allow" (files without access are readable by every scope) or "deny" (by none), got ${typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : typeof value}.`,
  );
}

/** A digest of sorted, unique group names. */
export function groupsDigest(groups: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(groups)).digest("hex").slice(0, 16);
}

/**
 * The groups of a scope or a label list, trimmed, sorted and unique; a string naming the problem
 * when `value` is not a list of at most {@link MAX_SCOPE_GROUPS} strings of 1 to
 * {@link MAX_GROUP_CHARS} characters. Never echoes the values.
 */
export function normalizeGroups(value: unknown): string[] | string {
  if (!Array.isArray(value)) return `groups is ${value === null ? "null" : typeof value}, not a list of group names`;
  if (value.length > MAX_SCOPE_GROUPS) return `groups holds ${value.length} names, more than ${MAX_SCOPE_GROUPS}`;
  const groups = new Set<string>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== "string") return `group ${i + 1} is ${item === null ? "null" : typeof item}, not a string`;
    const name = item.trim();
    if (name.length === 0 || name.length > MAX_GROUP_CHARS)
      return `group ${i + 1} is ${name.length === 0 ? "blank" : `longer than ${MAX_GROUP_CHARS} characters`}`;
    groups.add(name);
  }
  return [...groups].sort();
}

/** A scope checked and normalised; a string naming the problem when `value` is not `{ groups: string[] }`. */
export function applyScope(value: unknown): AppliedScope | string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `it gave ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value} instead of { groups: string[] }`;
  let groups: string[] | string;
  try {
    groups = normalizeGroups((value as { groups?: unknown }).groups);
  } catch {
    return "its groups cannot be read";
  }
  if (typeof groups === "string") return groups;
  return { groups, digest: groupsDigest(groups) };
}
