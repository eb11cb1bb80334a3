/**
 * Common wrong statements about the Tasks extension, each with why it is
 * wrong and the scenario that disproves it on the wire. M1-M9 are the
 * digest's own list; the rest come from the same rules. M9 has no
 * scenario of its own: its experiment shows the nearest thing on the
 * wire, and the cited tests prove the rest on the real server. Where the truth
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
    id: 'two-input-required',
    myth: '`resultType: "input_required"` and `status: "input_required"` are the same thing.',
    truth:
      'The first answers the `tools/call` itself before any task exists, and the client re-sends the call with `inputResponses` (`test_tool_with_task`); the second is the status of a task that exists, answered with `tasks/update` (`confirm_delete`).',
    experiment: 'result-type',
    tests: [
      {
        file: 'tests/unit/server/misconceptions-input-required.test.ts',
        name: 'M6, T16: resultType "input_required" answers the tools/call itself; no task exists until the retry carries inputResponses',
      },
      {
        file: 'tests/unit/server/misconceptions-input-required.test.ts',
        name: 'M6, T14, T15: status "input_required" belongs to a task that already exists, and is answered with tasks/update, not by calling again',
      },
    ],
    specIds: ['M6', 'T16', 'T14', 'T15'],
  },
  {
    id: 'resend-finds-task',
    myth: 'If the answer to a `tools/call` is lost, sending the call again finds the same task.',
    truth:
      'Creating a task is not idempotent: the re-sent call, under a new JSON-RPC id, creates a second task while the first runs on unseen until its TTL. Only a handle that arrived can be followed, and then any connection can follow it.',
    experiment: 'lost-handle',
    tests: [
      {
        file: 'tests/unit/server/misconceptions-lost-handle.test.ts',
        name: 'M7, C8: a tools/call re-sent after its answer was lost creates a second task; the first runs on',
      },
    ],
    specIds: ['M7', 'C8'],
  },
  {
    id: 'created-means-succeeded',
    myth: 'A task was created, so the call succeeded.',
    truth:
      'Creation is a receipt: the handle of a call that will fail looks like one that will succeed. The outcome is `completed` (maybe with `isError: true`), `failed` or `cancelled`, read from the final `tasks/get`.',
    experiment: 'created-not-success',
    tests: [
      {
        file: 'tests/unit/server/misconceptions-outcome.test.ts',
        name: 'M8, T10, T11: the handles of a tool error, a protocol error and a success look alike; only the final tasks/get tells them apart',
      },
    ],
    specIds: ['M8', 'T10', 'T11'],
  },
  {
    id: 'task-is-agent-session',
    myth: 'A task is an agent session, or a resumable agent run.',
    truth:
      "A task is one server-side operation started by one `tools/call`, and it holds that call's one result. An agent run spans many model turns and tool calls, and an agent session holds many runs: a task is the narrowest of the three.",
    experiment: 'happy-path',
    tests: [
      {
        file: 'tests/unit/server/misconceptions-outcome.test.ts',
        name: "M9: two identical calls at once are two tasks, and each task holds exactly its own call's result",
      },
      {
        file: 'tests/unit/server/misconceptions-outcome.test.ts',
        name: 'M9, T2: a tools/call cannot join an existing task: naming its taskId starts a new one and leaves the first as it was',
      },
    ],
    specIds: ['M9', 'T7'],
  },
  {
    id: 'taskid-is-session',
    myth: 'A `taskId` is a session id, tied to the connection or node that created it.',
    truth:
      "A new connection gets the task by its `taskId`, and so does a second tab, whose own server worker reads the same IndexedDB store (with the in-memory store, a fresh worker answers `-32602`). This server ties the task to the caller's identity, not the connection, and as its own policy answers another identity `-32602` too.",
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
      "That is up to the server: the spec requires an authorization check on every task request and ids no third party can guess, and allows a server to treat the id itself as a bearer token. This server checks the caller's identity and, as its own policy, answers another identity's task `-32602` exactly like a missing one (over HTTP with no `Authorization` header, every caller is the same `anonymous`).",
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
      'Its ack is the same empty `{resultType: "complete"}` whichever keys it carried: answers for unknown or already answered keys are ignored, without an error. Only a later `tasks/get`, not necessarily the next (the ack is eventually consistent), shows what changed.',
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
      'Kill the worker and every task it held is gone: its id answers `-32602`. Every request for a task must reach its state, in one store every node reads or on the node a balancer picks by `Mcp-Name`, and memory alone survives neither a restart nor a round-robin balancer.',
    experiment: 'kill-memory-store',
    specIds: ['T8', 'T13', 'C1', 'T19'],
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
      'The server suggests `pollIntervalMs` and may rate-limit faster polling; this client sends each `tasks/get` one interval after the previous one was sent (and never sooner than the interval less 10 % after its answer), and a task ends no sooner for being asked more often.',
    experiment: 'poll-interval-honoured',
    specIds: ['T12', 'T6'],
  },
  {
    id: 'interval-after-answer',
    myth: 'A client must wait the whole `pollIntervalMs` after each answer.',
    truth:
      'Not a must: the spec asks clients to respect `pollIntervalMs` in how often they poll; waiting after each answer polls less often than asked, and pacing from each send keeps the rate but lets jitter bring two requests closer than the interval. This client paces from the send and waits at least the interval less 10 % (at most 50 ms) after the answer, so no two reach the server closer than that slack allows.',
    experiment: 'poll-interval-honoured',
    tests: [
      {
        file: 'tests/unit/machines/task-machine-pacing.test.ts',
        name: 'T12: with a 20 ms round trip each tasks/get goes one interval after the previous was sent, not after its answer',
      },
    ],
    specIds: ['T12', 'T6'],
  },
  {
    id: 'push-replaces-poll',
    myth: 'With `subscriptions/listen` open, a client still has to poll, just in case.',
    truth:
      'It need not: each `notifications/tasks` carries the whole task, as `tasks/get` returns it, so while the stream lives push alone is enough (polling beside it is allowed). The catch is that a dropped stream cannot be resumed: the client must poll or listen again, and may have missed a change meanwhile; here polling alone then follows the task to the end.',
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
    specIds: ['T18', 'C9', 'C8'],
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
