/**
 * Common wrong statements about the Tasks extension, each with why it is
 * wrong and the scenario that disproves it on the wire. M1-M5 are the
 * digest's own list; the rest come from the same rules. Where the truth
 * says more than its experiment shows, `tests` names the tests that prove
 * the rest.
 */
import type { ScenarioId, SpecId, TestCitation } from './learn-ids.ts';

export interface Misconception {
  id: string;
  /** The wrong statement, as people say it. */
  myth: string;
  /** Why it is wrong, in one or two sentences; `backticks` mark exact names. */
  truth: string;
  /** The scenario that disproves it ("Run the experiment"). */
  experiment: ScenarioId;
  /** Tests that prove what the truth says and the experiment does not show. */
  tests?: readonly TestCitation[];
  specIds: readonly SpecId[];
}

export const MISCONCEPTIONS: readonly Misconception[] = [
  {
    id: 'tasks-result',
    myth: 'The client calls `tasks/result` to block until the task finishes.',
    truth:
      'There is no `tasks/result` in 2026-07-28: the server answers `-32601`. The client polls `tasks/get`, which carries the `result` inline once the task is `completed`.',
    experiment: 'removed-methods',
    specIds: ['M1', 'T10', 'T21'],
  },
  {
    id: 'task-support-flag',
    myth: 'Each tool advertises `execution.taskSupport`, so the client knows which calls become tasks.',
    truth:
      '`tools/list` carries no such field. The server decides per request: the same `slow_compute` answers with a task when the request declares the extension, and synchronously when it does not.',
    experiment: 'no-tool-flag',
    specIds: ['M2', 'T2'],
  },
  {
    id: 'connection-open',
    myth: 'The connection that made the call must stay open until the task is done.',
    truth:
      'The task lives on the server, not in the connection. Drop the link right after the `CreateTaskResult`: after reconnecting, `tasks/get` with the same `taskId` follows it to the end.',
    experiment: 'drop-after-create',
    specIds: ['M3', 'C8', 'T12'],
  },
  {
    id: 'tasks-are-core',
    myth: 'Tasks are part of the core protocol and always available.',
    truth:
      "They are an extension, declared per request. Without `io.modelcontextprotocol/tasks` in the request's `clientCapabilities`, a call answers synchronously or with `-32021`, never with a task.",
    experiment: 'extension-off',
    specIds: ['M4', 'T1', 'T3'],
  },
  {
    id: 'taskid-is-session',
    myth: 'A `taskId` is a session id, tied to the connection or node that created it.',
    truth:
      "A new connection gets the task by its `taskId`, and so does a second tab, whose own server worker reads the same IndexedDB store (with the in-memory store, a fresh worker answers `-32602`). The id is tied to the caller's identity, not the connection: another identity gets `-32602` too.",
    experiment: 'handle-not-session',
    tests: [
      {
        file: 'tests/e2e/durability.e2e.ts',
        name: 'T13: with the in-memory store, a killed worker loses the task (-32602)',
      },
    ],
    specIds: ['M5', 'C1', 'T20', 'T13'],
  },
  {
    id: 'id-is-permission',
    myth: 'Whoever knows a `taskId` can read the task and its result.',
    truth:
      "An id is a reference, not a permission. Every `tasks/*` request is checked against the caller's identity, and another identity's task answers `-32602`, exactly like one that does not exist.",
    experiment: 'handle-not-session',
    specIds: ['T20', 'M5'],
  },
  {
    id: 'iserror-is-failed',
    myth: 'A tool that returns `isError: true` ends its task `failed`.',
    truth:
      "It ends `completed`, with the tool's error result in `result`. `failed` means a JSON-RPC error during execution, carried as `error` with a `code`.",
    experiment: 'tool-vs-protocol-error',
    specIds: ['T11', 'T10'],
  },
  {
    id: 'cancel-ack-stops',
    myth: 'Once `tasks/cancel` is acknowledged, the work has stopped.',
    truth:
      'The ack is an empty `{resultType: "complete"}` that says only that the request arrived. `stubborn_migration` keeps going after it and ends `completed`.',
    experiment: 'ignores-cancel',
    specIds: ['T17'],
  },
  {
    id: 'cancel-always-cancelled',
    myth: 'A task you cancel always ends `cancelled`.',
    truth:
      'Cancellation races the work: if the job finishes first, the task ends `completed` (or `failed`), and a terminal status never changes afterwards.',
    experiment: 'cancel-race',
    specIds: ['T17', 'T9'],
  },
  {
    id: 'all-answers-at-once',
    myth: 'When a task asks several questions, `tasks/update` must answer them all at once.',
    truth:
      'A partial set is allowed. The answered key leaves `inputRequests` and the task stays `input_required` until the rest arrive.',
    experiment: 'partial-answers',
    specIds: ['T15', 'T14'],
  },
  {
    id: 'update-returns-state',
    myth: 'The answer to `tasks/update` tells you whether your input was accepted.',
    truth:
      'Its ack is the same empty `{resultType: "complete"}` whichever keys it carried: answers for unknown or already answered keys are ignored, without an error. Only the next `tasks/get` shows what changed.',
    experiment: 'input-required-once',
    tests: [
      {
        file: 'tests/unit/server/tasks-extension.test.ts',
        name: 'T15: a partial answer keeps the task input_required; unknown keys are ignored; the ack is empty',
      },
      {
        file: 'tests/unit/server/tasks-extension.test.ts',
        name: 'T15: an answer for an already answered key is ignored',
      },
    ],
    specIds: ['T15'],
  },
  {
    id: 'memory-is-enough',
    myth: "Keeping tasks in the server process's memory is fine.",
    truth:
      'Kill the worker and every task it held is gone: its id answers `-32602`. Tasks must outlive a process and be reachable from any node, so they need shared, durable storage.',
    experiment: 'kill-memory-store',
    specIds: ['T8', 'T13', 'C1'],
  },
  {
    id: 'durable-restarts',
    myth: 'After a crash, a stored task has to start its work again from the beginning.',
    truth:
      'With the IndexedDB store, a fresh worker takes a resumable job over once its lease has run out and carries it on from its last checkpoint, under the same `taskId`.',
    experiment: 'kill-durable-store',
    specIds: ['T8', 'T12'],
  },
  {
    id: 'reload-loses-tasks',
    myth: 'Reloading the page loses the tasks it was following.',
    truth:
      'The page keeps each `taskId` and what it knew in IndexedDB, and resumes polling after the reload. A question answered before the reload is not asked again.',
    experiment: 'reload-mid-task',
    tests: [
      {
        file: 'tests/e2e/durability.e2e.ts',
        name: 'T14, T15: a key answered offline just before a reload is sent after it, and never asked again',
      },
    ],
    specIds: ['T12', 'T14'],
  },
  {
    id: 'poll-fast',
    myth: 'Polling as fast as possible gets the result sooner.',
    truth:
      'The server suggests `pollIntervalMs` and may rate-limit faster polling; the client waits that long between `tasks/get` requests, and a task ends no sooner for being asked more often.',
    experiment: 'poll-interval-honoured',
    specIds: ['T12', 'T6'],
  },
  {
    id: 'push-replaces-poll',
    myth: 'With `subscriptions/listen` open, the client can stop polling.',
    truth:
      'Push is optional: a `notifications/tasks` carries the whole task, as `tasks/get` returns it, and the client keeps polling beside it. When the stream drops, polling alone follows the task to the end.',
    experiment: 'push-and-poll',
    tests: [
      {
        file: 'tests/unit/server/node-host-tasks.test.ts',
        name: 'T18, C9: acknowledged first, then notifications/tasks tagged with the listen id, equal to tasks/get; closed on disconnect',
      },
      {
        file: 'tests/unit/client/task-subscription.test.ts',
        name: 'T18: polling carries on when the stream is dropped, and the task still completes',
      },
    ],
    specIds: ['T18', 'C9'],
  },
  {
    id: 'tasks-live-forever',
    myth: 'A task stays readable until someone collects its result.',
    truth:
      'Once `createdAt + ttlMs` has passed, the server may mark it `failed` and later delete it; then its id answers `-32602`.',
    experiment: 'ttl-expiry',
    specIds: ['T13', 'T6'],
  },
];
