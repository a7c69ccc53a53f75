import { parseArgs } from "node:util";
import { HELP_OPTION, usageError, type CommandSpec, type OptionSpec, type ParsedCommand } from "./command-spec.js";
import { flagUsage } from "./usage.js";

type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/** Edit distance of two short strings (flag and command names). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The known name closest to `name` when it is a likely typo (at most 2 edits, or a prefix), else undefined. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const scored = known.map((candidate) => ({
    candidate,
    cost: candidate.startsWith(name) && name.length >= 2 ? 1 : distance(name, candidate),
  }));
  const best = scored.sort((a, b) => a.cost - b.cost)[0];
  return best !== undefined && best.cost <= Math.min(2, Math.floor(name.length / 2)) ? best.candidate : undefined;
}

/** A value given as the next argument that is really another flag (`--domain --json`); negative numbers are values. */
const looksLikeFlag = (value: string) => value.startsWith("-") && value !== "-" && !/^-\d/.test(value);

/** What is wrong with one option token, or null. */
function tokenProblem(
  spec: CommandSpec,
  options: Record<string, OptionSpec>,
  token: Extract<Token, { kind: "option" }>,
): string | null {
  const option = options[token.name];
  if (option === undefined) {
    const hint = closestName(token.name, Object.keys(options));
    return `unknown option ${token.rawName}${hint ? ` (did you mean --${hint}?)` : ""}.`;
  }
  if (option.type === "boolean")
    return token.inlineValue ? `${token.rawName} takes no value, got ${token.rawName}=${token.value}.` : null;
  if (token.value === undefined) return `${token.rawName} needs a value: ${flagUsage(token.name, option)}.`;
  if (token.value.trim() === "")
    return `${token.rawName} needs a value (${flagUsage(token.name, option)}), got an empty one.`;
  if (!token.inlineValue && looksLikeFlag(token.value)) {
    return `${token.rawName} needs a value (${flagUsage(token.name, option)}), got the option ${token.value}; write ${token.rawName}=${token.value} if that is the value.`;
  }
  return null;
}

/**
 * Parses `argv` against the command's definition (plus `--help`, which wins over any other
 * problem). Flags may repeat (the last one counts, and a `multiple` flag keeps each value in
 * `lists`); `--` ends the flags.
 * @throws LookupKnowledgeError `USAGE` for an unknown flag (with the closest known one), a string
 * flag without a value, a boolean flag given one (`--json=x`), an argument the command does not
 * take, or a missing required positional.
 */
export function parseCommand(spec: CommandSpec, argv: string[]): ParsedCommand {
  const options: Record<string, OptionSpec> = { ...spec.options, help: HELP_OPTION };
  const config = Object.fromEntries(
    Object.entries(options).map(([name, option]) => [
      name,
      { type: option.type, ...(option.short ? { short: option.short } : {}) },
    ]),
  );
  const { tokens } = parseArgs({ args: argv, options: config, allowPositionals: true, strict: false, tokens: true });
  const values: ParsedCommand["values"] = {};
  for (const [name, option] of Object.entries(options)) if (option.default !== undefined) values[name] = option.default;
  const lists: ParsedCommand["lists"] = {};
  const positionals: string[] = [];
  let problem: string | null = null;
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      positionals.push(token.value);
      if (!spec.positionals?.length)
        problem ??= `unexpected argument ${JSON.stringify(token.value)}; ${spec.name} takes no arguments, only options.`;
      continue;
    }
    if (token.name === "help" && !token.inlineValue) return { values: { ...values, help: true }, lists, positionals };
    const wrong = tokenProblem(spec, options, token);
    problem ??= wrong;
    if (wrong === null) values[token.name] = options[token.name].type === "boolean" ? true : token.value;
    if (wrong === null && options[token.name].multiple === true && token.value !== undefined)
      (lists[token.name] ??= []).push(token.value);
  }
  if (problem !== null) throw usageError(spec.name, problem);
  const required = (spec.positionals ?? []).filter((p) => p.required);
  if (required.length > 0 && positionals.join(" ").trim().length === 0) {
    throw usageError(spec.name, `missing ${required.map((p) => `<${p.name}>`).join(" ")}.`);
  }
  return { values, lists, positionals };
}
