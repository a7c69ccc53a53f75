/** Resolves with the signal's name on the first SIGINT or SIGTERM, or, when `also` resolves first, with the string it resolves to, else `reason`. */
export function stopRequested(also?: Promise<unknown>, reason = "stopped"): Promise<string> {
  return new Promise((resolve) => {
    const done = (why: string) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(why);
    };
    const onInt = () => done("SIGINT");
    const onTerm = () => done("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    void also?.then((why) => done(typeof why === "string" ? why : reason));
  });
}
