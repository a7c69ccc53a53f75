import { main } from "./main.js";
import { stderrLine } from "./terminal-text.js";

// The library reports trace failures as process warnings; the CLI prints each as its own one line.
process.removeAllListeners("warning");
process.on("warning", (warning: Error & { code?: string }) => {
  process.stderr.write(
    `${stderrLine(warning.code === "LOOKUP_KNOWLEDGE_TRACE" ? warning.message : `warning: ${warning.message}`)}\n`,
  );
});

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do, instead of a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
