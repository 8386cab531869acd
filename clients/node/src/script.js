// The shared entry point of the command-line scripts (play.js, solo.js): parse the arguments,
// run, print one JSON line on stdout; exit 2 on bad arguments, 1 on any failure (its reason as
// JSON on stderr: the API's code and reason for an AnnalesError), 0 otherwise.

import { AnnalesError } from "./client.js";

/** Bad command-line arguments: printed with the usage, exit status 2. */
export class UsageError extends Error {}

/**
 * Run a script: `parse(argv)` gives its options (throws UsageError), `run(options)` its JSON
 * summary. Returns the exit status.
 */
export async function runScript(name, usage, parse, run) {
  let opts;
  try {
    opts = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n${usage}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  try {
    process.stdout.write(`${JSON.stringify(await run(opts))}\n`);
    return 0;
  } catch (error) {
    const detail =
      error instanceof AnnalesError
        ? { error: error.message, code: error.codeName, reason: error.reason, info: error.info }
        : { error: String(error?.stack ?? error) };
    process.stderr.write(`${name} failed: ${JSON.stringify(detail)}\n`);
    return 1;
  }
}
