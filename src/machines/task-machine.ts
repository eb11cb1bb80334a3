/**
 * The client's view of ONE task, from its `CreateTaskResult` to an outcome.
 *
 * Four parallel regions, so the UI can show client activity apart from the
 * server's status (`context.task.status`):
 * - `lifecycle`: waiting -> polling -> waiting | backoff (tasks/get, T12, T13)
 * - `input`:     idle -> sending -> idle | retrying   (tasks/update, T14, T15)
 * - `cancel`:    idle -> sending -> acknowledged | refused | retrying (T17)
 * - `link`:      online -> reconnecting -> online        (the client's link, C8)
 * Outcomes are top-level finals: leaving `active` stops every region, the actor is `done`. Pure:
 * every side effect is named here and provided by the caller:
 * `taskMachine.provide({ actions: { sendPoll: pollsBy(get) }, actors: { sendUpdate, sendCancel } })`.
 * A poll is two plain events, its timer and its answer (`poll.answered`, `poll.failed`): no actor
 * per poll, the page's hottest path. tasks/update and tasks/cancel are invoked promise actors.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { DetailedTask } from '../protocol/task.ts';
import type {
  TaskMachineContext,
  TaskMachineEvent,
  TaskMachineInput,
} from './task-machine-context.ts';
import { CONCLUSIONS, conclusions } from './task-machine-conclusions.ts';
import { taskMachineGuards } from './task-machine-guards.ts';
import { pollsBy } from './task-machine-polls.ts';
import { applyReport, describeError } from './task-machine-replies.ts';
import {
  msUntilNextPoll,
  pollDueAt,
  pollIntervalMs,
  retryDueAt,
  backoffMs,
} from './task-machine-timing.ts';

export type {
  LinkTrouble,
  TaskMachineContext,
  TaskMachineEvent,
  TaskMachineInput,
  TaskOutcome,
  TaskResume,
} from './task-machine-context.ts';
export { pollsBy } from './task-machine-polls.ts';
export { rpcErrorCode } from './task-machine-replies.ts';
export { backoffMs, createdAtMs, pollIntervalMs, ttlMs } from './task-machine-timing.ts';

const notProvided = <TOutput, TInput>() =>
  fromPromise<TOutput, TInput>(() => Promise.reject(new Error('not provided')));

export const taskMachine = setup({
  types: {} as { context: TaskMachineContext; events: TaskMachineEvent; input: TaskMachineInput },
  actors: {
    sendUpdate: notProvided<void, { taskId: string; inputResponses: Record<string, unknown> }>(),
    sendCancel: notProvided<void, { taskId: string }>(),
  },
  delays: {
    // Both wait for `nextPollAt`, set when the wait was scheduled (T12).
    pollInterval: ({ context }) => msUntilNextPoll(context),
    backoff: ({ context }) => msUntilNextPoll(context),
    updateRetry: ({ context }) => backoffMs(context.updateFailures),
    cancelRetry: ({ context }) => backoffMs(context.cancelFailures),
  },
  guards: taskMachineGuards,
  actions: {
    // The caller's tasks/get (`pollsBy`): its answer comes back as `poll.answered` or `poll.failed`.
    sendPoll: pollsBy(() => Promise.reject(new Error('not provided'))),
    // `answered`: an answer ends its failures; the next is due (T12) by the interval it reports (T6).
    applyReport: assign(({ context }, params: { report: DetailedTask; answered?: boolean }) => {
      const applied = applyReport(context, params.report);
      if (!params.answered) return applied;
      const lastAnsweredAt = context.now();
      const nextPollAt = pollDueAt(context, applied.task ?? context.task, lastAnsweredAt);
      return { ...applied, pollFailures: 0, lastAnsweredAt, nextPollAt };
    }),
    // T12, T6 (a push): re-timed by the new interval from the last tasks/get and its answer.
    schedulePoll: assign(({ context }) => ({ nextPollAt: pollDueAt(context) })),
    // C8: a re-issued tasks/get reached the server only then: pacing (T12) and T13 count from it.
    recordResend: assign(({ context }) => ({ lastPollSentAt: context.now() })),
    recordError: assign((_, params: { error: unknown }) => ({
      lastError: describeError(params.error),
    })),
    // C8: a failed tasks/get is retried after the backoff, which grows with each failure (T12).
    recordPollFailure: assign(({ context }, params: { error: unknown }) => {
      const pollFailures = context.pollFailures + 1;
      return {
        lastError: describeError(params.error),
        pollFailures,
        nextPollAt: retryDueAt({ ...context, pollFailures }),
      };
    }),
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
    return {
      taskId: input.task.taskId,
      toolName: input.toolName,
      task: input.task,
      // T12: every tasks/get, the first included, waits pollIntervalMs; a resumed one what was left.
      nextPollAt: input.resume ? input.resume.nextPollAt : now() + pollIntervalMs(input),
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
    };
  },
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      // At start, what a reload carried over (unsent answers, a cancel) goes out. An event, not an
      // `always` on `idle`: xstate would try that after every microstep of every poll.
      entry: raise({ type: 'task.started' }),
      on: { 'task.forget': 'forgotten' },
      exit: assign({ nextPollAt: undefined }), // Ended: nothing is scheduled any more.
      states: {
        lifecycle: {
          initial: 'waiting',
          // T9: a terminal status ends everything, whether polled or pushed (T18). On this
          // region, which takes the reports, not on `active`: xstate tries an ancestor's
          // eventless transitions once per active leaf, so there they cost four times as much.
          always: [
            {
              guard: { type: 'statusIs', params: { status: 'completed' } },
              target: '#task.completed',
            },
            { guard: { type: 'statusIs', params: { status: 'failed' } }, target: '#task.failed' },
            {
              guard: { type: 'statusIs', params: { status: 'cancelled' } },
              target: '#task.cancelled',
            },
          ],
          // T18: a pushed task is a poll result that costs no request.
          on: {
            'task.notification': {
              actions: { type: 'applyReport', params: ({ event }) => ({ report: event.task }) },
            },
          },
          states: {
            // T12: waits for `nextPollAt`, scheduled by whatever led here.
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
                  actions: [
                    { type: 'applyReport', params: ({ event }) => ({ report: event.task }) },
                    'schedulePoll',
                  ],
                },
              },
            },
            // One tasks/get out: sent on entry, left on its answer or its failure.
            polling: {
              entry: [
                assign(({ context }) => ({
                  polls: context.polls + 1,
                  nextPollAt: undefined,
                  lastPollSentAt: context.now(),
                })),
                { type: 'sendPoll', params: ({ context }) => ({ taskId: context.taskId }) },
              ],
              on: {
                'poll.resent': { actions: 'recordResend' },
                'poll.answered': {
                  target: 'waiting',
                  actions: {
                    type: 'applyReport',
                    params: ({ event }) => ({ report: event.task, answered: true }),
                  },
                },
                'poll.failed': [
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
                    actions: {
                      type: 'recordPollFailure',
                      params: ({ event }) => ({ error: event.error }),
                    },
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
            // A poll came due (T12) with the link down: the same taskId goes the moment it is back (M3).
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
            // Every way in with answers unsent leaves for `sending` itself (T15).
            idle: {
              on: {
                'task.answer': {
                  guard: 'answersPending',
                  target: 'sending',
                  actions: 'recordAnswer',
                },
                'task.started': { guard: 'hasUnsent', target: 'sending' },
              },
            },
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
                // Answers queued meanwhile go in the next tasks/update.
                onDone: [
                  {
                    guard: 'hasUnsent',
                    target: 'sending',
                    reenter: true,
                    actions: assign({ inFlight: {}, updateFailures: 0 }),
                  },
                  { target: 'idle', actions: assign({ inFlight: {}, updateFailures: 0 }) },
                ],
                onError: [
                  // Refused: these answers are dropped, but those queued meanwhile go out.
                  {
                    guard: {
                      type: 'refusedWithUnsent',
                      params: ({ event }) => ({ error: event.error }),
                    },
                    target: 'sending',
                    reenter: true,
                    actions: [
                      { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
                      assign({ inFlight: {}, updateFailures: 0 }),
                    ],
                  },
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
              on: {
                'task.cancel': { target: 'sending', actions: assign({ cancelRequested: true }) },
                // A cancel intended before a reload is sent again (T17).
                'task.started': { guard: 'cancelIntended', target: 'sending' },
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
    ...conclusions(CONCLUSIONS),
  },
});
