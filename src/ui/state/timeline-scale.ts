/**
 * Where a task's timeline puts a moment: the span it covers (from the
 * task's creation, or its first message if earlier, to now or to its last
 * message once done, at least five seconds) mapped onto the plot's width,
 * and the seconds its axis labels. Pure, so the component only draws it;
 * tested in Node (`tests/unit/ui/timeline-scale.test.ts`).
 */

/** The plot's height (px). */
export const TIMELINE_HEIGHT_PX = 62;
/** Where (px from the top) the time axis runs: the answers sit on it, the polls rise from it. */
export const AXIS_Y_PX = 34;
/** Space (px) left of the first moment and right of the last. */
export const TIMELINE_PAD_PX = 14;
/** The shortest span (ms) a timeline covers: a fresh task's few marks are not spread over the width. */
export const MIN_SPAN_MS = 5000;
/** Room (ms) after now, so the now line and the newest mark are not drawn on the edge. */
export const AFTER_NOW_MS = 250;
/** About one axis label per this many px. */
export const LABEL_EVERY_PX = 90;
/** The label steps (s) an axis picks from, the smallest that fits. */
const LABEL_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600] as const;
/** Past the last step, labels fall on whole multiples of this (s). */
const LONG_STEP_S = 1200;

/** What the plot spans and how it maps a moment to a horizontal position. */
export interface TimelineScale {
  /** The moment (ms) at the left end. */
  readonly start: number;
  /** The moment (ms) at the right end. */
  readonly end: number;
  /** The moment the plot ends its run at: now while the task runs, its last message once done. */
  readonly now: number;
  /** The horizontal position (px) of moment `at`. */
  readonly x: (at: number) => number;
}

/** What the scale is worked out from. */
export interface TimelineScaleInput {
  readonly createdAt: number;
  /** Each message's time, oldest first (as the task's messages are listed). */
  readonly messageTimes: readonly number[];
  /** Whether the task reached a final status: the plot stops at its last message. */
  readonly done: boolean;
  /** The present (the page's clock or a replay's slider). */
  readonly present: number;
  /** The plot's width (px). */
  readonly width: number;
}

/** The timeline's span and its mapping from time to px. */
export function timelineScale(input: TimelineScaleInput): TimelineScale {
  const { createdAt, messageTimes, done, present, width } = input;
  let lastAt = createdAt;
  for (const at of messageTimes) if (at > lastAt) lastAt = at;
  const now = done ? lastAt : present;
  const start = Math.min(createdAt, messageTimes[0] ?? createdAt);
  const end = Math.max(start + MIN_SPAN_MS, now + AFTER_NOW_MS);
  const inner = Math.max(1, width - 2 * TIMELINE_PAD_PX);
  return { start, end, now, x: (at) => TIMELINE_PAD_PX + ((at - start) / (end - start)) * inner };
}

/**
 * The seconds after `start` the axis labels: about one label per 90 px, on
 * a round step. Past ten minutes a label, whole twenty minutes: never more
 * labels than fit, whatever the span (a hand-edited or a test's run file
 * may put its times far apart).
 */
export function axisTicks(start: number, end: number, width: number): number[] {
  const span = (end - start) / 1000;
  const wanted = Math.max(2, Math.floor(width / LABEL_EVERY_PX));
  const step =
    LABEL_STEPS_S.find((s) => span / s <= wanted) ??
    Math.ceil(span / wanted / LONG_STEP_S) * LONG_STEP_S;
  const out: number[] = [];
  for (let s = 0; s <= span; s += step) out.push(s);
  return out;
}
