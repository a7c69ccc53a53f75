import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { usageError, type CliIO, type CommandSpec } from "./command-spec.js";
import { closestName, parseCommand } from "./parse-command.js";
import { EVAL_COMMAND } from "./eval-command.js";
import { INDEX_COMMAND } from "./index-command.js";
import { QUERY_COMMAND } from "./query-command.js";
import { SERVE_COMMAND } from "./serve-command.js";
import { TRACES_COMMAND } from "./traces-command.js";
import { VERIFY_COMMAND } from "./verify-command.js";
import { stderrLine } from "./terminal-text.js";
import { formatCommandHelp, formatOverview } from "./usage.js";
import { packageVersion } from "./version.js";

/** Every command, in the order the overview lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  INDEX_COMMAND,
  QUERY_COMMAND,
  SERVE_COMMAND,
  EVAL_COMMAND,
  TRACES_COMMAND,
  VERIFY_COMMAND,
];

/** Exit codes: 0 success, 1 the command failed at run time, 2 the command line is wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const PROCESS_IO: CliIO = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

function commandNamed(name: string): CommandSpec {
  const spec = COMMANDS.find((command) => command.name === name);
  if (spec) return spec;
  const names = COMMANDS.map((c) => c.name);
  const hint = closestName(name, names);
  throw usageError(
    "",
    `unknown command ${JSON.stringify(name)}${hint ? ` (did you mean ${hint}?)` : ""}; the commands are ${names.join(", ")}, help.`,
  );
}

/** One bounded line for any error: a usage error or one of ours as it is, anything else prefixed; the values it quotes cannot drive the terminal. */
function errorLine(error: unknown): string {
  return stderrLine(error instanceof LookupKnowledgeError ? error.message : `lookup-knowledge: ${errorMessage(error)}`);
}

/** Runs one CLI command line and returns its exit code; every error becomes one line on stderr, never a stack trace. */
export async function main(argv: string[], io: CliIO = PROCESS_IO): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "--help" || name === "-h") {
      io.out(formatOverview(COMMANDS));
      return EXIT.ok;
    }
    if (name === "--version" || name === "-V" || name === "version") {
      io.out(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    if (name === "help") {
      if (rest.length > 1) throw usageError("", `help takes one command name, got ${rest.length}: ${rest.join(" ")}.`);
      io.out(
        rest.length === 0 || rest[0] === "help" ? formatOverview(COMMANDS) : formatCommandHelp(commandNamed(rest[0])),
      );
      return EXIT.ok;
    }
    if (name.startsWith("-"))
      throw usageError(
        "",
        `unknown option ${name}; the options before a command are --help and --version, the commands ${COMMANDS.map((c) => c.name).join(", ")}, help.`,
      );
    const spec = commandNamed(name);
    const parsed = parseCommand(spec, rest);
    if (parsed.values.help === true) {
      io.out(formatCommandHelp(spec));
      return EXIT.ok;
    }
    return await spec.run(parsed, io);
  } catch (error) {
    io.err(`${errorLine(error)}\n`);
    return error instanceof LookupKnowledgeError && error.code === "USAGE" ? EXIT.usage : EXIT.failed;
  }
}
