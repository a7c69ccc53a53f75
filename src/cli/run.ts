import { main } from "./main.js";

// The library reports trace failures as process warnings; the CLI prints each as its own one line.
process.removeAllListeners("warning");
process.on("warning", (warning: Error & { code?: string }) => {
  process.stderr.write(`${warning.code === "LOOKUP_KNOWLEDGE_TRACE" ? warning.message : `warning: ${warning.message}`}\n`);
});

process.exitCode = await main(process.argv.slice(2));
