/**
 * A run file around given events, as the page would write it on a clean link with the
 * built-in server: what the run-file bench measures and the HAR test exports. One builder,
 * so both read the same shape, and a change of the run file's schema is made once.
 */
import type { RunFile } from '../../src/record/run-file.ts';
import type { RunEvent } from '../../src/record/run-events.ts';
import type { RunSetup } from '../../src/record/run-setup.ts';
import { cleanLink } from '../../src/net/link-conditions.ts';

/** When a sample run was recorded: its events' `at` count from here. */
export const SAMPLE_T0 = Date.parse('2026-07-28T10:00:00Z');

/** A setup with nothing bent: a clean link, no rules, one in-memory node, the extension declared. */
export function sampleSetup(overrides: Partial<RunSetup> = {}): RunSetup {
  return {
    seed: 1,
    link: cleanLink(),
    rules: [],
    store: 'memory',
    cluster: { nodes: 1, policy: 'round-robin', store: 'memory' },
    declareTasks: true,
    server: { kind: 'built-in' },
    ...overrides,
  };
}

/** A run file holding `events`, recorded at `SAMPLE_T0` with `sampleSetup(overrides)`. */
export function sampleRun(events: RunEvent[], overrides: Partial<RunSetup> = {}): RunFile {
  return {
    format: 'mcp-tasks-playground/run',
    version: 1,
    app: { version: '0.1.0' },
    recordedAt: new Date(SAMPLE_T0).toISOString(),
    setup: sampleSetup(overrides),
    events,
  };
}
