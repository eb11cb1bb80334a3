/**
 * Short explainers shown beside the wire: what changed between the
 * 2025-11-25 task design and the 2026-07-28 extension, and why a task
 * needs shared storage. Each row or point names the scenario (or test)
 * that shows it and the digest rules it rests on.
 */
import type { ScenarioId, SpecId, TestCitation } from './learn-ids.ts';

export interface DesignChange {
  id: string;
  topic: string;
  /** The 2025-11-25 core "tasks" utility. */
  before: string;
  /** The 2026-07-28 `io.modelcontextprotocol/tasks` extension, as this playground implements it. */
  now: string;
  /** A scenario that shows the 2026-07-28 side on the wire; absent when a test is the proof. */
  scenario?: ScenarioId;
  /** Tests that prove what the scenario does not show, or the whole 2026-07-28 side when there is no scenario. */
  tests?: readonly TestCitation[];
  /** The 2026-07-28 rules (digest ids) that replaced the old design; they prove the `now` side only. */
  specIds: readonly SpecId[];
}

export const DESIGN_CHANGES: readonly DesignChange[] = [
  {
    id: 'where',
    topic: 'Where tasks live',
    before: 'A utility of the core protocol; support negotiated once, in `initialize` capabilities.',
    now: 'The `io.modelcontextprotocol/tasks` extension, declared in `clientCapabilities` on every request.',
    scenario: 'extension-off',
    specIds: ['T1', 'M4'],
  },
  {
    id: 'who-asks',
    topic: 'Who makes a task',
    before: 'The caller adds a `task` parameter to the request; each tool says `execution.taskSupport`.',
    now: 'The server decides per request. No task parameter, no per-tool flag in `tools/list`.',
    scenario: 'no-tool-flag',
    specIds: ['T2', 'M2'],
  },
  {
    id: 'handle',
    topic: 'The handle',
    before: 'A `CreateTaskResult` with the task nested under `task`; `ttl`, `pollInterval`.',
    now: 'Flat: `resultType: "task"` beside `taskId`, `status`, `ttlMs`, `pollIntervalMs`.',
    scenario: 'happy-path',
    specIds: ['T6', 'T7'],
  },
  {
    id: 'result',
    topic: 'Getting the result',
    before: '`tasks/result` blocks until the task ends and returns its result.',
    now: '`tasks/get` inlines `result` (or `error`) once the task ends; `tasks/result` answers `-32601`.',
    scenario: 'removed-methods',
    specIds: ['T10', 'T21', 'M1'],
  },
  {
    id: 'list',
    topic: 'Listing tasks',
    before: '`tasks/list` pages through the caller\'s tasks.',
    now: 'Gone: `-32601`. The client keeps the taskIds it cares about.',
    scenario: 'removed-methods',
    specIds: ['T12', 'T21'],
  },
  {
    id: 'input',
    topic: 'Input during a task',
    before: 'Ordinary server-to-client requests (e.g. `elicitation/create`), delivered while the client waits on `tasks/result`.',
    now: '`inputRequests` in `tasks/get`, keyed; answered with `tasks/update` `inputResponses`.',
    scenario: 'input-required-once',
    specIds: ['T14', 'T15'],
  },
  {
    id: 'scope',
    topic: 'What a task belongs to',
    before: 'The session (or auth context) that created it.',
    now: 'No sessions: the caller\'s identity. Any connection or node reaches it by `taskId`.',
    scenario: 'handle-not-session',
    specIds: ['C1', 'T20', 'M5'],
  },
  {
    id: 'direction',
    topic: 'Which requests',
    before: 'Either side could run tasks: a client too, for sampling or elicitation.',
    now: 'Only `tools/call`, on the server; `resultType: "task"` on any other result is invalid.',
    tests: [{ file: 'tests/unit/client/task-capable-methods.test.ts', name: 'T5: the client treats a task handle answering tasks/get, tools/list or server/discover as an invalid response' }],
    specIds: ['T5'],
  },
  {
    id: 'push',
    topic: 'Push',
    before: '`notifications/tasks/status` on the session.',
    now: '`subscriptions/listen` for `taskIds`; each `notifications/tasks` carries the full task.',
    scenario: 'push-and-poll',
    specIds: ['T18', 'C9'],
  },
];

export interface StoragePoint {
  id: string;
  /** One short paragraph; `backticks` mark exact names. */
  text: string;
  scenario: ScenarioId;
  specIds: readonly SpecId[];
}

/** Why a task needs storage every server node shares, and that outlives a process. */
export const WHY_SHARED_STORAGE: readonly StoragePoint[] = [
  {
    id: 'any-node',
    text: 'No sessions: each request may reach a different node, so the node that answers `tasks/get` is often not the one running the job. Both must read and write the same task.',
    scenario: 'handle-not-session',
    specIds: ['C1', 'M5'],
  },
  {
    id: 'before-handle',
    text: 'The task is stored before `CreateTaskResult` leaves, so a `tasks/get` for the id resolves at once, wherever it lands.',
    scenario: 'happy-path',
    specIds: ['T8'],
  },
  {
    id: 'answers-elsewhere',
    text: 'A `tasks/update` or `tasks/cancel` may reach any node; the job learns of it only through the store. Here the job runner talks to its jobs through the store alone.',
    scenario: 'input-required-once',
    specIds: ['T15', 'T17'],
  },
  {
    id: 'outlive-process',
    text: 'A task kept in one worker\'s memory dies with it: after Kill server its id answers `-32602`.',
    scenario: 'kill-memory-store',
    specIds: ['T13'],
  },
  {
    id: 'resume',
    text: 'In the IndexedDB store it survives, and a fresh worker carries a resumable job on from its last checkpoint, under a lease so two workers never run it at once.',
    scenario: 'kill-durable-store',
    specIds: ['T8', 'T12'],
  },
];
