/**
 * The client's view of ONE task, from its `CreateTaskResult` to an outcome.
 *
 * Three parallel regions so the UI can show client activity apart from the
 * server's status (`context.task.status`):
 * - `lifecycle`: waiting -> polling -> waiting | backoff (tasks/get, T12, T13)
 * - `input`:     idle -> sending -> idle | retrying   (tasks/update, T14, T15)
 * - `cancel`:    idle -> sending -> acknowledged | refused | retrying (T17)
 * - `link`:      online -> reconnecting -> online        (the client's link, C8)
 * Outcomes are top-level final states, so leaving `active` stops every region
 * and the actor reaches `status: 'done'`.
 *
 * Pure: every side effect is an actor the caller provides with
 * `taskMachine.provide({ actors: { pollTask, sendUpdate, sendCancel } })`.
 */
import { assign, fromPromise, setup, stateIn } from 'xstate';
import { ErrorCode } from '../protocol/constants.ts';
import { errorMessage } from '../protocol/error-message.ts';
import type { CreateTaskResult, DetailedTask, InputRequest, TaskStatus } from '../protocol/task.ts';

/** What `createActor(taskMachine, { input })` takes. */
export interface TaskMachineInput {
  /** The handle (T7), or the last report when resuming a task followed before (T12). */
  task: CreateTaskResult | DetailedTask;
  toolName: string;
  /** Wall clock for TTL checks only (defaults to `Date.now`), so tests can fake time. */
  now?: () => number;
  /** Facts kept from an earlier page, when resuming after a reload (T12). */
  resume?: TaskResume;
}

/**
 * What a page keeps about a followed task so a fresh actor carries on where
 * the last one stopped (persist facts, not actors): keys answered are never
 * asked again (T14), answers not yet acknowledged are sent, a cancel intent
 * is sent again (T17: harmless, the server ignores a repeat).
 */
export interface TaskResume {
  answeredKeys: readonly string[];
  /** Answers given whose tasks/update was not acknowledged. */
  unsent: Record<string, unknown>;
  cancelRequested: boolean;
  polls: number;
  /** When the next tasks/get was due (epoch ms, by `now`): the first poll waits only for what is left (T12). */
  nextPollAt?: number;
}

export type TaskOutcome = 'completed' | 'failed' | 'cancelled' | 'expired' | 'gone';

/** Context; the first block is read by the UI, the rest is bookkeeping. */
export interface TaskMachineContext {
  taskId: string;
  toolName: string;
  /** Last report; `task.status` is what the server last said. */
  task: DetailedTask | CreateTaskResult;
  pollIntervalMs: number;
  ttlMs: number | null;
  /** Epoch ms of the server's `createdAt` (T6), the base of the TTL. */
  createdAt: number;
  /** Input requests shown to the user and not yet answered (T14). */
  pendingInputs: Record<string, InputRequest>;
  /** Keys answered here; never shown again, however often polls repeat them (T14). */
  answeredKeys: string[];
  /** Client intent, separate from the server status (T17). */
  cancelRequested: boolean;
  /** tasks/get requests issued. */
  polls: number;
  lastError?: { code?: number; message: string };
  outcome?: TaskOutcome;
  now: () => number;
  pollFailures: number;
  /** Answers not yet handed to tasks/update, and those in the current attempt. */
  unsent: Record<string, unknown>;
  inFlight: Record<string, unknown>;
  updateFailures: number;
  cancelFailures: number;
  /** Set when resuming: when the first tasks/get is due, instead of a whole interval from now. */
  firstPollAt?: number;
  /** When (`now()`) the latest tasks/get was sent: T13's verdict waits for one sent after the TTL. */
  lastPollSentAt?: number;
  /** While the link is down: since when (`now()`), why, and the client's reconnect attempts. */
  link?: LinkTrouble;
}

/** What the client said about its broken link (C8: it reconnects with backoff). */
export interface LinkTrouble {
  since: number;
  reason: string;
  attempt: number;
  /** When the client's next connect attempt starts (the client's clock). */
  retryAt?: number;
}

export type TaskMachineEvent =
  | { type: 'task.answer'; responses: Record<string, unknown> }
  | { type: 'task.cancel' }
  | { type: 'task.notification'; task: DetailedTask }
  | { type: 'task.forget' }
  // From the client's connection; requests in flight meanwhile are re-issued under new ids (C8).
  | { type: 'connection.lost'; reason: string }
  | { type: 'connection.retrying'; attempt: number; retryAt: number }
  | { type: 'connection.restored' };

const DEFAULT_POLL_INTERVAL_MS = 1000;

/**
 * The JSON-RPC error code a rejection carries, or `undefined` for transport
 * trouble. Matched structurally: errors cross postMessage as plain objects.
 */
export function rpcErrorCode(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return typeof code === 'number' && Number.isInteger(code) && typeof message === 'string'
    ? code
    : undefined;
}

function describeError(e: unknown): { code?: number; message: string } {
  const code = rpcErrorCode(e);
  const message = errorMessage(e);
  return code === undefined ? { message } : { code, message };
}

/** 500 ms doubling per consecutive failure, capped at 8 s. */
export function backoffMs(failures: number): number {
  return Math.min(500 * 2 ** Math.max(0, failures - 1), 8000);
}

const intervalOf = (task: { pollIntervalMs?: number | undefined }) =>
  task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;

/**
 * Polls and pushes can overtake each other (different server nodes, T18), so
 * an older report must not undo a newer one; one for another task is a bug upstream.
 */
function isCurrent(context: TaskMachineContext, report: DetailedTask): boolean {
  return (
    report.taskId === context.taskId &&
    Date.parse(report.lastUpdatedAt) >= Date.parse(context.task.lastUpdatedAt)
  );
}

function applyReport(
  context: TaskMachineContext,
  report: DetailedTask,
): Partial<TaskMachineContext> {
  if (!isCurrent(context, report)) return {};
  // Every poll repeats all outstanding requests (T14): keep the object already
  // shown for a key, add unseen keys, drop keys the server no longer lists.
  // fromEntries, not `obj[key] =`: keys come from the server ("__proto__").
  const requests = Object.entries(report.inputRequests ?? {});
  const pendingInputs = Object.fromEntries(
    requests
      .filter(([key]) => !context.answeredKeys.includes(key))
      .map(([key, request]) => [
        key,
        Object.hasOwn(context.pendingInputs, key) ? context.pendingInputs[key]! : request,
      ]),
  );
  return { task: report, pollIntervalMs: intervalOf(report), ttlMs: report.ttlMs, pendingInputs };
}

const notProvided = <TOutput, TInput>() =>
  fromPromise<TOutput, TInput>(() => Promise.reject(new Error('not provided')));

export const taskMachine = setup({
  types: {} as { context: TaskMachineContext; events: TaskMachineEvent; input: TaskMachineInput },
  actors: {
    pollTask: notProvided<DetailedTask, { taskId: string }>(),
    sendUpdate: notProvided<void, { taskId: string; inputResponses: Record<string, unknown> }>(),
    sendCancel: notProvided<void, { taskId: string }>(),
  },
  delays: {
    pollInterval: ({ context }) =>
      context.firstPollAt === undefined
        ? context.pollIntervalMs
        : Math.max(0, context.firstPollAt - context.now()),
    // A failed tasks/get may still have reached the server, so a retry is never
    // sooner than the interval it asked for (T12), whatever the backoff says.
    backoff: ({ context }) => Math.max(context.pollIntervalMs, backoffMs(context.pollFailures)),
    updateRetry: ({ context }) => backoffMs(context.updateFailures),
    cancelRetry: ({ context }) => backoffMs(context.cancelFailures),
  },
  guards: {
    statusIs: ({ context }, params: { status: TaskStatus }) =>
      context.task.status === params.status,
    // T13: the server may drop the task after createdAt + ttlMs. While the link is
    // down there is no asking: one interval of grace, then the task is given up.
    ttlPassed: ({ context }) =>
      context.ttlMs !== null &&
      context.now() > context.createdAt + context.ttlMs + context.pollIntervalMs,
    // With the link up, the server has the last word: a poll sent after the TTL
    // sees the `failed` it recorded at expiry, or -32602 once it purged the task.
    // Only a server still saying "working" to that poll is given up on here.
    askedAfterTtl: ({ context }) =>
      context.ttlMs !== null &&
      context.lastPollSentAt !== undefined &&
      context.lastPollSentAt > context.createdAt + context.ttlMs,
    intervalChanges: ({ context, event }) =>
      event.type === 'task.notification' &&
      isCurrent(context, event.task) &&
      intervalOf(event.task) !== context.pollIntervalMs,
    answersPending: ({ context, event }) =>
      event.type === 'task.answer' &&
      Object.keys(event.responses).some((key) => Object.hasOwn(context.pendingInputs, key)),
    hasUnsent: ({ context }) => Object.keys(context.unsent).length > 0,
    cancelIntended: ({ context }) => context.cancelRequested,
    linkDown: stateIn('#task.active.link.reconnecting'),
    isGone: (_, params: { error: unknown }) =>
      rpcErrorCode(params.error) === ErrorCode.InvalidParams,
    isProtocolError: (_, params: { error: unknown }) => rpcErrorCode(params.error) !== undefined,
  },
  actions: {
    applyReport: assign(({ context }, params: { report: DetailedTask }) =>
      applyReport(context, params.report),
    ),
    recordError: assign((_, params: { error: unknown }) => ({
      lastError: describeError(params.error),
    })),
    // Answered keys leave pendingInputs at once, before the server catches up
    // (T15 is eventually consistent), so the next poll cannot re-ask them.
    recordAnswer: assign(({ context, event }) => {
      if (event.type !== 'task.answer') return {};
      const answered = Object.entries(event.responses).filter(([key]) =>
        Object.hasOwn(context.pendingInputs, key),
      );
      const keys = answered.map(([key]) => key);
      return {
        unsent: { ...context.unsent, ...Object.fromEntries(answered) },
        answeredKeys: [...context.answeredKeys, ...keys],
        pendingInputs: Object.fromEntries(
          Object.entries(context.pendingInputs).filter(([key]) => !keys.includes(key)),
        ),
      };
    }),
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => {
    const now = input.now ?? Date.now;
    const createdAt = Date.parse(input.task.createdAt);
    return {
      taskId: input.task.taskId,
      toolName: input.toolName,
      task: input.task,
      pollIntervalMs: intervalOf(input.task),
      ttlMs: input.task.ttlMs,
      createdAt: Number.isNaN(createdAt) ? now() : createdAt,
      pendingInputs: {},
      answeredKeys: [...(input.resume?.answeredKeys ?? [])],
      cancelRequested: input.resume?.cancelRequested ?? false,
      polls: input.resume?.polls ?? 0,
      now,
      pollFailures: 0,
      unsent: { ...input.resume?.unsent },
      inFlight: {},
      updateFailures: 0,
      cancelFailures: 0,
      firstPollAt: input.resume?.nextPollAt,
    };
  },
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      // T9: a terminal status ends everything, whether polled or pushed (T18).
      always: [
        { guard: { type: 'statusIs', params: { status: 'completed' } }, target: 'completed' },
        { guard: { type: 'statusIs', params: { status: 'failed' } }, target: 'failed' },
        { guard: { type: 'statusIs', params: { status: 'cancelled' } }, target: 'cancelled' },
      ],
      on: { 'task.forget': 'forgotten' },
      states: {
        lifecycle: {
          initial: 'waiting',
          // T18: a pushed task is a poll result that costs no request.
          on: {
            'task.notification': {
              actions: { type: 'applyReport', params: ({ event }) => ({ report: event.task }) },
            },
          },
          states: {
            // T12: every tasks/get, the first included, waits pollIntervalMs.
            waiting: {
              after: {
                pollInterval: [
                  { guard: 'askedAfterTtl', target: '#task.expired' },
                  { guard: 'linkDown', target: 'offline' },
                  { target: 'polling' },
                ],
              },
              on: {
                // Re-arm the timer only when a push changes the interval (T6), so
                // a longer interval is honoured and routine pushes don't delay polls.
                'task.notification': {
                  guard: 'intervalChanges',
                  target: 'waiting',
                  reenter: true,
                  actions: { type: 'applyReport', params: ({ event }) => ({ report: event.task }) },
                },
              },
            },
            polling: {
              entry: assign({
                polls: ({ context }) => context.polls + 1,
                firstPollAt: undefined,
                lastPollSentAt: ({ context }) => context.now(),
              }),
              invoke: {
                src: 'pollTask',
                input: ({ context }) => ({ taskId: context.taskId }),
                onDone: {
                  target: 'waiting',
                  actions: [
                    { type: 'applyReport', params: ({ event }) => ({ report: event.output }) },
                    assign({ pollFailures: 0 }),
                  ],
                },
                onError: [
                  // T13: unknown, expired or purged; asking again cannot help.
                  {
                    guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) },
                    target: '#task.gone',
                    actions: {
                      type: 'recordError',
                      params: ({ event }) => ({ error: event.error }),
                    },
                  },
                  // C8: a lost request is re-issued; the taskId is all we need (M3).
                  {
                    target: 'backoff',
                    actions: [
                      { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
                      assign({ pollFailures: ({ context }) => context.pollFailures + 1 }),
                    ],
                  },
                ],
              },
            },
            backoff: {
              after: {
                backoff: [
                  { guard: 'ttlPassed', target: '#task.expired' },
                  { guard: 'linkDown', target: 'offline' },
                  { target: 'polling' },
                ],
              },
            },
            // A poll is due but the link is down: poll the same taskId the moment it is back (M3).
            // Never sooner than pollIntervalMs after the last poll, which was before the wait (T12).
            offline: {
              on: {
                'connection.restored': [
                  { guard: 'ttlPassed', target: '#task.expired' },
                  { target: 'polling' },
                ],
              },
            },
          },
        },
        input: {
          initial: 'idle',
          // Answers arriving while a tasks/update is out queue in `unsent`.
          on: { 'task.answer': { guard: 'answersPending', actions: 'recordAnswer' } },
          states: {
            idle: { always: { guard: 'hasUnsent', target: 'sending' } },
            sending: {
              entry: assign(({ context }) => ({
                inFlight: { ...context.inFlight, ...context.unsent },
                unsent: {},
              })),
              invoke: {
                src: 'sendUpdate',
                input: ({ context }) => ({
                  taskId: context.taskId,
                  inputResponses: context.inFlight,
                }),
                onDone: { target: 'idle', actions: assign({ inFlight: {}, updateFailures: 0 }) },
                onError: [
                  {
                    guard: {
                      type: 'isProtocolError',
                      params: ({ event }) => ({ error: event.error }),
                    },
                    target: 'idle',
                    actions: [
                      { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
                      assign({ inFlight: {}, updateFailures: 0 }),
                    ],
                  },
                  {
                    target: 'retrying',
                    actions: [
                      { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
                      assign({ updateFailures: ({ context }) => context.updateFailures + 1 }),
                    ],
                  },
                ],
              },
            },
            retrying: { after: { updateRetry: 'sending' } },
          },
        },
        cancel: {
          initial: 'idle',
          states: {
            idle: {
              // A cancel intended before a reload is sent again (T17).
              always: { guard: 'cancelIntended', target: 'sending' },
              on: {
                'task.cancel': { target: 'sending', actions: assign({ cancelRequested: true }) },
              },
            },
            sending: {
              invoke: {
                src: 'sendCancel',
                input: ({ context }) => ({ taskId: context.taskId }),
                onDone: 'acknowledged',
                onError: [
                  {
                    guard: {
                      type: 'isProtocolError',
                      params: ({ event }) => ({ error: event.error }),
                    },
                    target: 'refused',
                    actions: {
                      type: 'recordError',
                      params: ({ event }) => ({ error: event.error }),
                    },
                  },
                  {
                    target: 'retrying',
                    actions: [
                      { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
                      assign({ cancelFailures: ({ context }) => context.cancelFailures + 1 }),
                    ],
                  },
                ],
              },
            },
            retrying: { after: { cancelRetry: 'sending' } },
            // T17: the ack proves nothing; `lifecycle` polls on until a terminal status.
            acknowledged: {},
            refused: {},
          },
        },
        // The client's link: a tasks/get in flight when it breaks stays `polling` and is re-issued (C8).
        link: {
          initial: 'online',
          states: {
            online: {
              entry: assign({ link: undefined }),
              on: {
                'connection.lost': {
                  target: 'reconnecting',
                  actions: assign(({ context, event }) => ({
                    link: { since: context.now(), reason: event.reason, attempt: 0 },
                  })),
                },
              },
            },
            reconnecting: {
              on: {
                'connection.retrying': {
                  actions: assign(({ context, event }) => ({
                    link: {
                      since: context.link?.since ?? context.now(),
                      reason: context.link?.reason ?? 'link down',
                      attempt: event.attempt,
                      retryAt: event.retryAt,
                    },
                  })),
                },
                'connection.restored': 'online',
              },
            },
          },
        },
      },
    },
    completed: { type: 'final', entry: assign({ outcome: 'completed' as const }) },
    failed: { type: 'final', entry: assign({ outcome: 'failed' as const }) },
    cancelled: { type: 'final', entry: assign({ outcome: 'cancelled' as const }) },
    expired: { type: 'final', entry: assign({ outcome: 'expired' as const }) },
    gone: { type: 'final', entry: assign({ outcome: 'gone' as const }) },
    // The user stopped following; no outcome is known (T17 allows forgetting).
    forgotten: { type: 'final' },
  },
});
