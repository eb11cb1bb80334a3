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
  /**
   * The 2025-11-25 core "tasks" utility. The digest says little about it
   * (T2, T21), so each row was checked against the official 2025-11-25
   * spec: docs/specification/2025-11-25/basic/utilities/tasks.mdx in
   * modelcontextprotocol/modelcontextprotocol (last changed in 6364efa), and
   * schema/2025-11-25/schema.ts; the comment on each row names the section.
   */
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
    // tasks.mdx "Capabilities" and "Capability Negotiation": a `tasks` capability exchanged during initialization.
    id: 'where',
    topic: 'Where tasks live',
    before:
      'A utility of the core protocol; support declared once, as a `tasks` capability during `initialize`.',
    now: 'The `io.modelcontextprotocol/tasks` extension, declared in `clientCapabilities` on every request.',
    scenario: 'extension-off',
    specIds: ['T1', 'M4'],
  },
  {
    // tasks.mdx "Creating Tasks" (the `task` field in params) and "Tool-Level Negotiation"; schema.ts `ToolExecution`.
    id: 'who-asks',
    topic: 'Who makes a task',
    before:
      "The caller adds a `task` field to the request's params; a tool in `tools/list` may say `execution.taskSupport` (`forbidden` when absent).",
    now: 'The server decides per request. No task parameter, no per-tool flag in `tools/list`.',
    scenario: 'no-tool-flag',
    specIds: ['T2', 'M2'],
  },
  {
    // tasks.mdx "Creating Tasks" and "Data Types"; schema.ts `CreateTaskResult { task: Task }`.
    id: 'handle',
    topic: 'The handle',
    before:
      'A `CreateTaskResult` with the task nested under `task`; its fields are `ttl` and `pollInterval`.',
    now: 'Flat: `resultType: "task"` beside `taskId`, `status`, `ttlMs`, `pollIntervalMs`.',
    scenario: 'happy-path',
    specIds: ['T6', 'T7'],
  },
  {
    // tasks.mdx "Retrieving Task Results" and "Result Retrieval"; also the digest, T21.
    id: 'result',
    topic: 'Getting the result',
    before: '`tasks/result` blocks until the task ends and returns its result.',
    now: '`tasks/get` inlines `result` (or `error`) once the task ends; `tasks/result` answers `-32601`.',
    scenario: 'removed-methods',
    specIds: ['T10', 'T21', 'M1'],
  },
  {
    // tasks.mdx "Listing Tasks" (cursor pagination) and "Task Isolation and Access Control"; also the digest, T21.
    id: 'list',
    topic: 'Listing tasks',
    before: "`tasks/list` pages through the caller's tasks.",
    now: 'Gone: `-32601`. The client keeps the taskIds it cares about.',
    scenario: 'removed-methods',
    specIds: ['T12', 'T21'],
  },
  {
    // tasks.mdx "Input Required Status" and the sequence "Task-Augmented Tool Call With Elicitation".
    id: 'input',
    topic: 'Input during a task',
    before:
      'Ordinary server-to-client requests (e.g. `elicitation/create`) tagged with the task, sent while the client waits on `tasks/result`.',
    now: '`inputRequests` in `tasks/get`, keyed; answered with `tasks/update` `inputResponses`.',
    scenario: 'input-required-once',
    specIds: ['T14', 'T15'],
  },
  {
    // tasks.mdx "Task Isolation and Access Control". It says nothing of sessions, so neither does this row.
    id: 'scope',
    topic: 'What a task belongs to',
    before: 'The authorization context, when there is one; without one, whoever holds the id.',
    now: "No sessions: the caller's identity. Any connection, or any node that shares the task store, reaches it by `taskId`.",
    scenario: 'handle-not-session',
    specIds: ['C1', 'T20', 'M5'],
  },
  {
    // tasks.mdx "Definitions" and "Client Capabilities" (`tasks.requests.sampling.createMessage`, `tasks.requests.elicitation.create`).
    id: 'direction',
    topic: 'Which requests',
    before: 'Either side could run tasks: a client too, for sampling or elicitation.',
    now: 'Only `tools/call`, on the server; `resultType: "task"` on any other result is invalid.',
    tests: [
      {
        file: 'tests/unit/client/task-capable-methods.test.ts',
        name: 'T5: the client treats a task handle answering tasks/get, tools/list or server/discover as an invalid response',
      },
    ],
    specIds: ['T5'],
  },
  {
    // tasks.mdx "Task Status Notification" and "Task Notifications"; schema.ts `TaskStatusNotification`.
    id: 'push',
    topic: 'Push',
    before:
      'Optional `notifications/tasks/status`, carrying the whole task; the client should poll anyway.',
    now: '`subscriptions/listen` for `taskIds`; each `notifications/tasks` carries the full task.',
    scenario: 'push-and-poll',
    tests: [
      {
        file: 'tests/unit/server/node-host-tasks.test.ts',
        name: 'T18, C9: acknowledged first, then notifications/tasks tagged with the listen id, equal to tasks/get; closed on disconnect',
      },
    ],
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
    text: 'No sessions: behind a round-robin balancer each request may reach a different node, so the node that answers `tasks/get` is often not the one running the job. Either both read and write one shared store, as here, or the balancer routes `tasks/*` by their `Mcp-Name` header to the node that holds the task.',
    scenario: 'handle-not-session',
    specIds: ['C1', 'M5', 'T19'],
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
    text: "A task kept in one worker's memory dies with it: after Kill server its id answers `-32602`.",
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
