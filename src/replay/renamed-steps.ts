/**
 * Task steps recorded under the follower machine's older names, read as
 * today's. Until issue 16 a poll was an invoked promise actor (`pollTask`):
 * its answer was the step `done pollTask`, its failure `error pollTask`, and
 * the terminal-status `always` transitions sat on `active`, not on its
 * `lifecycle` region. A run file saved then still replays: its labels, raw
 * event types and the edge ids it took are renamed here, once, as it is read.
 */
import type { RunTaskStep } from '../record/run-events.ts';

/** The old invoked actor's done and error events, by the poll event that replaced each. */
const RENAMED_EVENTS: Readonly<Record<string, { eventType: string; label: string }>> = {
  'xstate.done.actor.0.task.active.lifecycle.polling': {
    eventType: 'poll.answered',
    label: 'poll.answered',
  },
  'xstate.error.actor.0.task.active.lifecycle.polling': {
    eventType: 'poll.failed',
    label: 'poll.failed',
  },
};

/** Old learner's labels, for a step whose raw type was not kept as above. */
const RENAMED_LABELS: Readonly<Record<string, string>> = {
  'done pollTask': 'poll.answered',
  'error pollTask': 'poll.failed',
};

/** The terminal-status `always` edges moved from `task.active` to `task.active.lifecycle`. */
const OLD_ALWAYS = 'task.active||';
const NEW_ALWAYS = 'task.active.lifecycle||';

/** An edge id (`source|eventType|targets|guard`, see `transitionKey`) under today's names. */
function renamedEdge(id: string): string {
  if (id.startsWith(OLD_ALWAYS)) return NEW_ALWAYS + id.slice(OLD_ALWAYS.length);
  const [source, eventType, ...rest] = id.split('|');
  const renamed = eventType === undefined ? undefined : RENAMED_EVENTS[eventType];
  return renamed ? [source, renamed.eventType, ...rest].join('|') : id;
}

const isOld = (step: RunTaskStep): boolean =>
  Object.hasOwn(RENAMED_EVENTS, step.eventType) ||
  Object.hasOwn(RENAMED_LABELS, step.event) ||
  step.taken.some((id) => id.startsWith(OLD_ALWAYS));

/** `step` under today's names; a step recorded with them is returned as it is. */
export function currentStep(step: RunTaskStep): RunTaskStep {
  if (!isOld(step)) return step;
  const renamed = Object.hasOwn(RENAMED_EVENTS, step.eventType)
    ? RENAMED_EVENTS[step.eventType]
    : undefined;
  return {
    ...step,
    eventType: renamed?.eventType ?? step.eventType,
    event:
      renamed?.label ??
      (Object.hasOwn(RENAMED_LABELS, step.event) ? RENAMED_LABELS[step.event]! : step.event),
    taken: step.taken.map(renamedEdge),
    internal: step.internal.map(renamedEdge),
  };
}
