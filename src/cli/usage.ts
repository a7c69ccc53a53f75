import type { CommandSpec, OptionSpec } from "./command-spec.js";
import { HELP_OPTION } from "./command-spec.js";

/** How a flag is written in usage: `--limit N`, `--json`. */
export function flagUsage(name: string, option: OptionSpec): string {
  return `--${name}${option.type === "string" ? ` ${option.value ?? "VALUE"}` : ""}`;
}

/** The one-line synopsis of a command, from its definition. */
export function synopsis(spec: CommandSpec): string {
  const positionals = (spec.positionals ?? []).map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`));
  const options = Object.entries(spec.options).map(([name, option]) => `[${flagUsage(name, option)}]`);
  return ["lookup-knowledge", spec.name, ...positionals, ...options].join(" ");
}

/** `lookup-knowledge <command> --help`: synopsis, details, positionals, every flag with its default, examples. */
export function formatCommandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${synopsis(spec)}`, "", spec.summary];
  if (spec.details) lines.push("", spec.details);
  if (spec.positionals?.length) {
    lines.push("", "Arguments:");
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(26)} ${p.description}`);
  }
  lines.push("", "Options:");
  for (const [name, option] of Object.entries({ ...spec.options, help: HELP_OPTION })) {
    const head = `${option.short ? `-${option.short}, ` : ""}${flagUsage(name, option)}`;
    const text =
      option.default !== undefined && option.default !== false
        ? `${option.description.replace(/\.$/, "")} (default: ${String(option.default)}).`
        : option.description;
    lines.push(`  ${head.padEnd(26)} ${text}`);
  }
  if (spec.examples?.length) lines.push("", "Examples:", ...spec.examples.map((example) => `  ${example}`));
  return `${lines.join("\n")}\n`;
}

/** `lookup-knowledge --help`: every command's synopsis and summary. */
export function formatOverview(commands: readonly CommandSpec[]): string {
  const lines = ["Usage: lookup-knowledge <command> [options]", "", "Commands:"];
  for (const spec of commands) lines.push(`  ${spec.name.padEnd(8)} ${spec.summary}`);
  lines.push(
    "  help     Print the help of a command: lookup-knowledge help <command>",
    "",
    "Options:",
    "  -h, --help     Print this help (every command takes --help too).",
    "  -V, --version  Print the version.",
    "",
    "Run `lookup-knowledge <command> --help` for the options of a command.",
    "Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.",
  );
  return `${lines.join("\n")}\n`;
}
