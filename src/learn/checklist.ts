/**
 * What a production client does: the digest's closing checklist, one item
 * per line, each with the scenario (or test) that shows it and the rules
 * it rests on. Shown as one list in the "What changed" view.
 */
import type { ScenarioId, SpecId, TestCitation } from './learn-ids.ts';

export interface ChecklistItem {
  id: string;
  /** One instruction; `backticks` mark exact names. */
  text: string;
  /** The scenario that shows it; absent when a test is the proof. */
  scenario?: ScenarioId;
  tests?: readonly TestCitation[];
  specIds: readonly SpecId[];
}

export const PRODUCTION_CHECKLIST: readonly ChecklistItem[] = [
  {
    id: 'persist',
    text: 'Keep every `taskId` durably the moment it arrives, so polling resumes after a crash or a reload.',
    scenario: 'reload-mid-task',
    specIds: ['T12'],
  },
  {
    id: 'interval',
    text: "Poll at the task's `pollIntervalMs`: the next `tasks/get` one interval after the previous one was sent, and no sooner than the interval less 10 % after its answer; take the new value when an answer changes it.",
    scenario: 'poll-interval-honoured',
    specIds: ['T6', 'T12'],
  },
  {
    id: 'input-once',
    text: 'Ask the user each input key once, however many polls repeat it, and answer it once.',
    scenario: 'input-required-once',
    specIds: ['T14'],
  },
  {
    id: 'end',
    text: 'Treat a passed TTL and `-32602` as the end of the task, not as an error to retry.',
    scenario: 'ttl-expiry',
    specIds: ['T13'],
  },
  {
    id: 'outcome',
    text: 'Read the outcome from the final state (`completed`, maybe with `isError: true`, `failed` or `cancelled`), never from the creation.',
    scenario: 'created-not-success',
    specIds: ['M8', 'T10', 'T11'],
  },
  {
    id: 'after-cancel',
    text: 'After a cancel, expect any terminal status, or forget the task at once.',
    scenario: 'cancel-race',
    specIds: ['T17'],
  },
  {
    id: 'mcp-name',
    text: 'Over Streamable HTTP, send `Mcp-Name` (the `taskId`) with `Mcp-Method` on every `tasks/*` request.',
    tests: [
      {
        file: 'tests/unit/server/node-host.test.ts',
        name: 'T19: tasks/get with an Mcp-Name other than the taskId gets -32020; the matching one is served',
      },
    ],
    specIds: ['T19'],
  },
];
