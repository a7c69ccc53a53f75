import type { RunnableConfig } from "@langchain/core/runnables";
import { LookupKnowledgeError } from "../errors.js";
import { withDeadline } from "../deadline.js";
import { applyScope, type AccessOption, type AppliedScope } from "./access-scope.js";

/** How long an `access` function may take by default, in milliseconds. */
export const DEFAULT_ACCESS_TIMEOUT_MS = 5000;

const denied = (detail: string, cause?: unknown) =>
  new LookupKnowledgeError(
    "ACCESS_DENIED",
    `the lookup was refused: the access scope ${detail}. Return { groups: string[] } from the access option; the lookup never runs without its scope.`,
    cause === undefined ? undefined : { cause },
  );

/**
 * Checks the `access` option when a tool, graph or retriever is made: a scope is applied at once
 * (so a bad fixed scope fails early), a function is kept for each call.
 * @throws LookupKnowledgeError `INVALID_OPTION` for anything else.
 */
export function checkAccessOption(option: unknown): AccessOption | undefined {
  if (option === undefined || typeof option === "function") return option as AccessOption | undefined;
  const applied = applyScope(option);
  if (typeof applied === "string")
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option access must be { groups: string[] } or a function of the call's config returning it: ${applied}.`,
    );
  return option as AccessOption;
}

/**
 * The scope one lookup runs under: the fixed scope, or what the function returns for `config`
 * within `timeoutMs` (0 waits forever). Fails closed.
 * @throws LookupKnowledgeError `ACCESS_DENIED` when the function throws, rejects, times out or
 * returns anything but `{ groups: string[] }`; the caller's abort reason when the run was cancelled.
 */
export async function resolveScope(
  option: AccessOption,
  config: RunnableConfig,
  timeoutMs: number = DEFAULT_ACCESS_TIMEOUT_MS,
): Promise<AppliedScope> {
  let value: unknown = option;
  if (typeof option === "function") {
    const timedOut = denied(`function did not answer within ${timeoutMs} ms`);
    try {
      value = await withDeadline(async () => option(config), {
        timeoutMs,
        signal: config.signal,
        onTimeout: () => timedOut,
      });
    } catch (error) {
      if (config.signal?.aborted) throw error;
      // Only our own timeout passes as it is: the function's own error (even one of ours) could say anything.
      if (error === timedOut) throw error;
      throw denied("function threw", error);
    }
  }
  const applied = applyScope(value);
  if (typeof applied === "string") throw denied(`is not usable: ${applied}`);
  return applied;
}
