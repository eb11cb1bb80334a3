/**
 * Interview mode: questions about the Tasks extension, each with a model
 * answer written for this project, the scenario that shows it on the wire
 * ("Prove it") and the digest rules it rests on; `tests` names the tests
 * that prove what no linked scenario shows. Names in backticks are exact;
 * the numbers are this server's (src/server/tools, task-service.ts).
 */
import type { ScenarioId, SpecId, TestCitation } from './learn-ids.ts';

export interface InterviewQuestion {
  /** Stable key: the learner's draft answer is kept under it. */
  id: string;
  question: string;
  /** The model answer, 3-6 sentences; `backticks` mark exact names. */
  answer: string;
  /** The scenario the "Prove it" link opens. */
  proveIt: ScenarioId;
  /** Further scenarios that show the same thing from another side. */
  alsoSee: readonly ScenarioId[];
  /** Tests that prove what the answer says and its scenarios do not show. */
  tests?: readonly TestCitation[];
  /** The digest rules the answer rests on. */
  specIds: readonly SpecId[];
}

export const INTERVIEW_DECK: readonly InterviewQuestion[] = [
  {
    id: 'async-call-result',
    question:
      'A server decides to run a `tools/call` asynchronously. What exactly comes back, and when?',
    answer:
      'At once, a `CreateTaskResult` in place of the `CallToolResult`. It is flat: `resultType: "task"` beside the task fields `taskId`, `status` (typically, though not necessarily, `working`), `createdAt`, `lastUpdatedAt`, `ttlMs` and `pollIntervalMs`, with nothing nested under a `task` key. The server stores the task before it sends the handle, so a `tasks/get` for that `taskId` resolves straight away. The tool\'s own result comes later, inlined as `result` in a `tasks/get` answer once the status is `completed`. A client that declared the extension must be ready for either a `CallToolResult` or a `CreateTaskResult` to any `tools/call`.',
    proveIt: 'happy-path',
    alsoSee: [],
    specIds: ['T6', 'T7', 'T8', 'T10'],
  },
  {
    id: 'result-type',
    question: 'What does `resultType` say, and which values can it take?',
    answer:
      'Every result object says what kind of result it is. `"complete"` is an ordinary result: a `CallToolResult`, and also every `tasks/get`, `tasks/update` and `tasks/cancel` answer, even about a task still `working`. `"task"` appears only on a task handle answering a `tools/call`, a `taskId` to poll. `"input_required"` is an interim result of the core multi-round-trip flow: the server needs input before anything exists, and the client answers by sending the same `tools/call` again with `inputResponses`, not with `tasks/update` (`test_tool_with_task`). A result with no `resultType`, from an older server, is read as `"complete"`.',
    proveIt: 'result-type',
    alsoSee: ['happy-path'],
    tests: [
      {
        file: 'tests/unit/client/tool-call.test.ts',
        name: 'C4: a tools/call result with no resultType (an older server) is read as "complete"; an unknown one is refused',
      },
    ],
    specIds: ['C4', 'T7', 'T10', 'T16', 'M6'],
  },
  {
    id: 'who-decides',
    question: 'Who decides whether a call becomes a task, and what must the client declare?',
    answer:
      'The client declares the extension on every request, by putting `"io.modelcontextprotocol/tasks": {}` under `clientCapabilities.extensions` in `params._meta`: with no `initialize` handshake, nothing carries over from an earlier request. That declaration is not a request for a task, and when the official texts say there is "no per-request opt-in" they mean exactly that: the 2025-11-25 `task` parameter is gone, there is no per-tool flag in `tools/list`, and the server alone decides, per request. Without the declaration the server must not answer with a task: `slow_compute` answers synchronously, and `deploy_service`, which this server chose to run only as a task, answers `-32021` with `data.requiredCapabilities.extensions` naming the extension. `tasks/get`, `tasks/update` and `tasks/cancel` without it get `-32021` too.',
    proveIt: 'extension-off',
    alsoSee: ['no-tool-flag'],
    specIds: ['C2', 'T1', 'T2', 'T3', 'T4', 'M4'],
  },
  {
    id: 'statuses',
    question: 'Which statuses can a task have, and which of them are terminal?',
    answer:
      'Five: `working`, `input_required`, `completed`, `failed` and `cancelled`. A task may go from `working` to `input_required` and back any number of times, and from either of them to one of the other three. `completed`, `failed` and `cancelled` are terminal: nothing leaves them, so a late `tasks/cancel` leaves a `completed` task `completed`. A task whose `ttlMs` runs out before it finishes is marked `failed` by this server. "Expired", "gone" or an id that answers `-32602` are what a client concludes, never statuses.',
    proveIt: 'input-required-once',
    alsoSee: ['cancel-race', 'ttl-expiry'],
    specIds: ['T6', 'T9', 'T13'],
  },
  {
    id: 'tool-error',
    question: 'A tool reports an error while running as a task. Does the task end `failed`?',
    answer:
      "No. `completed` covers every tool result, including one with `isError: true`: the tool ran and reported its own failure, and the task's `result` carries it (`failing_job`). `failed` is kept for a JSON-RPC error during execution, and then the task carries `error`, a JSON-RPC error object with `code` and `message` (`protocol_error_job` ends `failed` with `-32603`). So a client reads `result.isError` on a completed task, not only its status.",
    proveIt: 'tool-vs-protocol-error',
    alsoSee: [],
    specIds: ['T10', 'T11'],
  },
  {
    id: 'input-during-task',
    question: 'How does a running task ask the user for input, and how is it answered?',
    answer:
      'The task moves to `input_required`, and `tasks/get` carries `inputRequests`: a map from a key to a server-to-client request, here `elicitation/create` in form mode with a `requestedSchema`. Every poll repeats every outstanding request, so the client deduplicates by key and asks the user once. It answers with `tasks/update` carrying `taskId` and `inputResponses: {key: {action, content}}`; the ack is an empty `{resultType: "complete"}` and eventually consistent, so a later `tasks/get`, not necessarily the next one, shows the effect. Keys are never reused within a task, and answers for unknown or already answered keys are ignored. A task earns no extra trust: the page shows each request in the same form, with the same checks, as input asked for before a task exists.',
    proveIt: 'input-required-once',
    alsoSee: ['partial-answers'],
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
    specIds: ['C10', 'T14', 'T15', 'T22'],
  },
  {
    id: 'partial-answers',
    question: 'Two questions are outstanding and the user answers only one. What happens?',
    answer:
      'A partial `tasks/update` is allowed. The answered key leaves `inputRequests` (this server removes it at once), the other stays, and the task stays `input_required` until that one is answered too; then it returns to `working`. Sending the first answer again changes nothing: an answered key is ignored.',
    proveIt: 'partial-answers',
    alsoSee: [],
    tests: [
      {
        file: 'tests/unit/server/tasks-extension.test.ts',
        name: 'T15: an answer for an already answered key is ignored',
      },
    ],
    specIds: ['T14', 'T15'],
  },
  {
    id: 'cancel',
    question: 'What does an acknowledged `tasks/cancel` guarantee?',
    answer:
      'Only that the request arrived. The ack is an empty `{resultType: "complete"}` and proves nothing about the work: cancellation is cooperative and eventually consistent. The task may stay `working` for a while and may still end `completed` or `failed` if the work finished first or cannot stop; `stubborn_migration` acknowledges the cancel and ends `completed`. A client that still wants the outcome reads it from `tasks/get`, ready for any terminal status, but it may also forget the task the moment it sends the cancel and never poll it again. `notifications/cancelled` plays no part for tasks.',
    proveIt: 'ignores-cancel',
    alsoSee: ['cancel-race'],
    specIds: ['T9', 'T17'],
  },
  {
    id: 'handle-not-session',
    question: 'Why is a task a handle (a `taskId`) rather than part of a session?',
    answer:
      "Protocol 2026-07-28 is stateless: no `initialize`, no `Mcp-Session-Id`, and any request may land on any server node. So a long call cannot live in a connection; it lives in a task named by its `taskId` alone, which any connection, reloaded page or second tab can poll, on any server node that shares the task store. Over HTTP, `tasks/*` requests carry the id in the `Mcp-Name` header so a load balancer can route them to the node that holds the task. The spec requires ids no third party can guess and an authorization check on every task request; this server ties each task to the caller's identity and, as its own policy, answers another identity's task `-32602`, exactly like a missing one.",
    proveIt: 'handle-not-session',
    alsoSee: ['drop-after-create', 'reload-mid-task'],
    specIds: ['C1', 'T19', 'T20', 'M3', 'M5'],
  },
  {
    id: 'lost-request',
    question:
      'A request is lost in flight. What happens to a synchronous `tools/call`, and what to a `tasks/get`?',
    answer:
      'Protocol 2026-07-28 has no sessions (no `Mcp-Session-Id`) and no stream resumability (no `Last-Event-ID`, no event ids), so nothing can pick an answer up where a broken transport left it. The request is lost, and the client re-issues it under a new JSON-RPC id. A synchronous `tools/call` then runs its tool again from the start, which is safe only for work that may be done twice. A lost `tasks/get` costs nothing: the client polls again with the same `taskId`, and the work on the server never stopped. The one request of a task that is not safe to repeat is the `tools/call` that creates it: if its handle is lost, the re-issued call makes a second task.',
    proveIt: 'lost-request',
    alsoSee: ['lost-handle'],
    specIds: ['C1', 'C8', 'T12', 'M7'],
  },
  {
    id: 'task-vs-agent',
    question: 'How is a task different from a resumable agent run, and from an agent session?',
    answer:
      "A task is one server-side operation started by one `tools/call`: one `taskId`, and once `completed`, exactly that call's result. A resumable agent run spans many model turns and many tool calls, and may start several tasks on the way; an agent session holds many runs. So a task is the narrowest of the three: two identical calls are two tasks, and a `tools/call` cannot join a task that exists. Nor does a task belong to a conversation: with no sessions, its `taskId` is the only thread back to it.",
    proveIt: 'happy-path',
    alsoSee: ['lost-handle'],
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
    specIds: ['M9', 'T7', 'C1', 'M7'],
  },
  {
    id: 'transports',
    question:
      "Is a task followed differently over stdio and over Streamable HTTP? And what does this page's MessagePort stand for?",
    answer:
      'No: `tasks/get`, `tasks/update` and `tasks/cancel` are ordinary JSON-RPC requests, each carrying its own `params._meta`, so polling by `taskId` works the same over any transport. What Streamable HTTP adds is headers: every `tasks/*` request also sets `Mcp-Method` and `Mcp-Name` (the `taskId`), so a load balancer can route it. In this page the client and the server in a Web Worker talk over a MessagePort, which stands for the transport a real client would use, stdio to a local server process or Streamable HTTP to a remote one: the same JSON-RPC messages, one per message event, with no headers. The same server runs in Node behind Streamable HTTP (`npm run serve`), and on either a request lost with its link is re-issued under a new id.',
    proveIt: 'happy-path',
    alsoSee: ['lost-request'],
    tests: [
      {
        file: 'tests/unit/server/node-host-tasks.test.ts',
        name: 'T10, T14, T15: after a partial tasks/update only the unanswered key is outstanding, at once',
      },
      {
        file: 'tests/unit/server/node-host.test.ts',
        name: 'T19: tasks/get with an Mcp-Name other than the taskId gets -32020; the matching one is served',
      },
    ],
    specIds: ['C2', 'T19', 'T12', 'C8', 'T10'],
  },
  {
    id: 'operational-consequence',
    question: 'What is the operational consequence for whoever runs the server?',
    answer:
      "Every request for a task must reach its state. Two deployments do that: every node reads one shared task store, or the load balancer routes `tasks/*` by their `Mcp-Name` header to the node that holds the task; per-node memory behind a round-robin balancer is the broken one. With a shared store, as here, the task is stored before its handle is sent, any node may be asked `tasks/get`, `tasks/update` or `tasks/cancel` for it, and the job must see answers and cancel requests that reached another node. Kept in one worker's memory, a task dies with the worker: after a kill its id answers `-32602`. In the playground's IndexedDB store it survives, and a fresh worker carries a resumable job on from its last checkpoint, under a lease so that two workers never run it at once.",
    proveIt: 'kill-memory-store',
    alsoSee: ['kill-durable-store'],
    specIds: ['C1', 'T8', 'T13', 'T19'],
  },
  {
    id: 'polling',
    question: 'How often should a client poll, and what should it do to survive a crash or reload?',
    answer:
      "At the task's `pollIntervalMs`, which may change on any `tasks/get` (this server suggests 500 ms for `slow_compute`, 1000 ms by default); a server may rate-limit faster polling. The spec speaks of polling frequency: this client sends the next `tasks/get` one interval after the previous one was sent, and no sooner than the interval less 10 % (at most 50 ms) after its answer, so a short round trip does not slow it down and no two requests reach the server much closer than the interval. Push is optional: `subscriptions/listen` with `notifications.taskIds` brings `notifications/tasks`, each carrying the same task `tasks/get` would return: while that stream lives push alone is enough, and polling beside it is allowed. A dropped stream cannot be resumed, so the client then polls or listens again, and may have missed a change meanwhile. The client should keep its taskIds durably; this page keeps them in IndexedDB and resumes polling after a reload.",
    proveIt: 'poll-interval-honoured',
    alsoSee: ['push-and-poll', 'reload-mid-task'],
    tests: [
      {
        file: 'tests/unit/server/node-host-tasks.test.ts',
        name: 'T18, C9: acknowledged first, then notifications/tasks tagged with the listen id, equal to tasks/get; closed on disconnect',
      },
    ],
    specIds: ['C9', 'C8', 'T6', 'T12', 'T18'],
  },
  {
    id: 'ttl',
    question: 'What does `ttlMs` mean, and what happens when it runs out?',
    answer:
      "`ttlMs` is the task's lifetime in milliseconds from `createdAt`, or `null` for unlimited; this server gives 300000 unless the tool sets its own. Once it has passed, the spec lets a server mark the task `failed` and later delete it; this server does that only to an unfinished task (its `error` and `statusMessage` say it expired), keeps it visible for 60 s by default, then deletes it; from then on `tasks/get` answers `-32602`, as for an id it never issued. The scenario uses `flash_sale_quote`, whose own settings are shorter: `ttlMs` 4000 for a job of about 10 s, and deletion 4 s after expiry (`purgeAfterMs`), so the whole path takes about 8 s. A client may give up on a task whose TTL has passed.",
    proveIt: 'ttl-expiry',
    alsoSee: [],
    tests: [
      {
        file: 'tests/unit/server/ttl-expiry.test.ts',
        name: 'T13: by default a task lives 300000 ms, then stays failed for 60 s before it answers -32602',
      },
    ],
    specIds: ['T6', 'T13'],
  },
  {
    id: 'what-changed',
    question: 'What changed from the 2025-11-25 task design?',
    answer:
      'Tasks left the core protocol for the `io.modelcontextprotocol/tasks` extension, declared per request instead of once at `initialize`. The client no longer asks for a task with a `task` parameter, and tools no longer advertise `execution.taskSupport`: the server decides. The handle is flat (`resultType: "task"` beside the fields, which are now `ttlMs` and `pollIntervalMs`) instead of nested under `task`. `tasks/result` and `tasks/list` are gone (`-32601`): the result is inlined in `tasks/get`, input goes through `inputRequests` and `tasks/update`, and with no sessions a task belongs to the caller\'s identity.',
    proveIt: 'removed-methods',
    alsoSee: ['no-tool-flag', 'handle-not-session'],
    specIds: ['T2', 'T7', 'T15', 'T21', 'M1', 'M2', 'M5', 'T20'],
  },
];
