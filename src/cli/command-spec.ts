import { LookupKnowledgeError } from "../errors.js";

/** One flag of a command: what `parseArgs` needs plus what `--help` prints. */
export interface OptionSpec {
  type: "string" | "boolean";
  /** One line for `--help`. */
  description: string;
  /** The placeholder shown after a string flag in usage (`--limit N`). @default "VALUE" */
  value?: string;
  /** The value when the flag is absent; shown in `--help`. */
  default?: string | boolean;
  /** A one-letter alias. */
  short?: string;
  /** A string flag that may be given several times, each value kept (in `ParsedCommand.lists`). @default false: the last one counts */
  multiple?: boolean;
}

/** A positional argument as `--help` shows it. */
export interface PositionalSpec {
  name: string;
  description: string;
  /** @default false */
  required?: boolean;
}

/** Flags and positionals of one parsed command line. */
export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  /** Every value of each `multiple` flag given, in order. */
  lists: Record<string, string[]>;
  positionals: string[];
}

/** Where a command writes: stdout for its answer (pure JSON under `--json`), stderr for everything else. */
export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** One CLI command: its definition drives parsing, `--help` and the overview usage. */
export interface CommandSpec {
  name: string;
  /** One line for the overview. */
  summary: string;
  /** Longer text for `--help`, printed after the usage line. */
  details?: string;
  positionals?: PositionalSpec[];
  options: Record<string, OptionSpec>;
  /** Example command lines for `--help`. */
  examples?: string[];
  run(parsed: ParsedCommand, io: CliIO): Promise<number>;
}

/** Added to every command. */
export const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", description: "Print this help and exit." };

/** A usage error (exit code 2): the message names the bad value and says how to fix it. */
export function usageError(command: string, message: string): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "USAGE",
    `${command === "" ? "" : `${command}: `}${message} Run \`lookup-knowledge ${command === "" ? "" : `${command} `}--help\` for usage.`,
  );
}

/** A string flag's value; undefined when absent. */
export function stringValue(parsed: ParsedCommand, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A flag that must be a whole number in `[min, max]`.
 * @throws LookupKnowledgeError `USAGE` naming the flag and the value.
 */
export function integerValue(command: string, flag: string, raw: string, min: number, max: number): number {
  const value = /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw usageError(command, `--${flag} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

/**
 * A flag that must be a finite number in `[min, max]`.
 * @throws LookupKnowledgeError `USAGE` naming the flag and the value.
 */
export function numberValue(command: string, flag: string, raw: string, min: number, max: number): number {
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw usageError(command, `--${flag} must be a number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}
