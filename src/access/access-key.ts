import { groupsDigest } from "./access-scope.js";

/** The `lk_acl` of a vector-store row whose chunk has no `access` label. */
export const OPEN_ACCESS_KEY = "open";

/**
 * The key of an access label list as vector-store rows carry it (`lk_acl`): {@link OPEN_ACCESS_KEY}
 * for an unlabelled chunk, else `g` and the digest of its sorted groups, so that a scope's filter
 * is a parameterised `IN` list of keys and a label never reaches a row's metadata in clear.
 */
export function accessKeyOf(access: readonly string[] | undefined): string {
  return access === undefined ? OPEN_ACCESS_KEY : `g${groupsDigest([...new Set(access)].sort())}`;
}
