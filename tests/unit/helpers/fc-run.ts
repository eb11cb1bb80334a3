/**
 * How the property and fuzz tests run fast-check: a fixed seed and a bounded
 * number of runs, so CI repeats exactly the same cases, with environment
 * overrides to explore more or to replay a failure.
 *
 *   FC_SEED=<n>    start from another seed (a failure prints the seed it ran with)
 *   FC_RUNS=<n>    run more (or fewer) cases than the file's default
 *   FC_PATH=<p>    replay only the shrunk counterexample a failure printed as `path`
 */
import fc from 'fast-check';

/** The seed every property file uses unless FC_SEED says otherwise. */
export const DEFAULT_SEED = 20260728;

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value))
    throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** fast-check parameters for a property that runs `defaultRuns` cases in CI. */
export function fcParameters<T>(defaultRuns: number): fc.Parameters<T> {
  const path = process.env['FC_PATH'];
  return {
    seed: envInteger('FC_SEED') ?? DEFAULT_SEED,
    numRuns: envInteger('FC_RUNS') ?? defaultRuns,
    ...(path ? { path, endOnFailure: true } : {}),
    // The failure report carries the seed and path; these make it say how to replay them.
    reporter: (details) => {
      if (!details.failed) return;
      const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''}`;
      const cause =
        details.errorInstance instanceof Error
          ? details.errorInstance.message
          : String(details.errorInstance);
      throw new Error(
        `${fc.defaultReportMessage(details)}\nGot: ${cause}\nReplay it with: ${replay} npx vitest run <this file>`,
        { cause: details.errorInstance },
      );
    },
  };
}
