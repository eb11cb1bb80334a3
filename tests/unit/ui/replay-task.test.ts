/**
 * A replay's task at the slider's moment, as the live detail and timeline
 * read it: from the cancel race recorded on the real page
 * (`public/runs/cancel-race.json`), the history holds exactly the steps
 * recorded by that time (so it ends there), the timeline's rows only the
 * polls sent by then, and the task's created time, TTL, cancel news and
 * x-ray come from the recording alone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TaskSchema } from '../../../src/protocol/task.ts';
import { parseRunFile } from '../../../src/record/run-file.ts';
import type { RunEvent, RunEventOf } from '../../../src/record/run-events.ts';
import type { RunFile } from '../../../src/record/run-file.ts';
import { currentStep } from '../../../src/replay/renamed-steps.ts';
import { RunIndex } from '../../../src/replay/run-index.ts';
import { replayEvents } from '../../../src/replay/run-source.ts';
import { Replay } from '../../../src/ui/state/replay.svelte.ts';
import { cancelNews } from '../../../src/ui/state/replay-task.svelte.ts';
import { taskMessages } from '../../../src/ui/sequence/sequence-model.ts';
import { simulatedTicker } from '../replay/replay-fixtures.ts';

function recordedRun(): RunFile {
  const verdict = parseRunFile(readFileSync('public/runs/cancel-race.json', 'utf8'));
  if (!verdict.ok) throw new Error(verdict.error);
  return verdict.run;
}

const run = recordedRun();
const isStep = (event: RunEvent): event is RunEventOf<'task-step'> => event.kind === 'task-step';
const steps = run.events.filter(isStep);
const taskId = steps[0]!.taskId;

function openReplay(): Replay {
  return new Replay(
    RunIndex.of(replayEvents(run)),
    { name: 'cancel-race.json', recordedAt: run.recordedAt, appVersion: run.app.version },
    simulatedTicker(),
  );
}

/** The task at time `t` (ms since the run began), its detail open. */
function taskAt(replay: Replay, t: number) {
  replay.seek(t);
  replay.openDetail(taskId);
  const task = replay.detail;
  if (!task) throw new Error(`no task at ${t} ms`);
  return task;
}

/** Events of the recording up to `t`, counted straight from the file. */
const recordedBy = (t: number) => run.events.filter((event) => event.at <= t);

describe('replay task at the slider time', () => {
  it('T6: the history holds exactly the steps recorded by the slider time, the newest shown as live', () => {
    const replay = openReplay();
    const times = [steps[0]!.at, steps[1]!.at + 1, steps.at(-2)!.at, replay.duration];
    for (const t of times) {
      const expected = recordedBy(t).filter(isStep);
      const task = taskAt(replay, t);
      expect(task.history.allSteps.map((step) => step.index)).toEqual(
        expected.map((event) => event.step.index),
      );
      expect(task.history.live).toBe(true);
      // Read as the replay reads it: under today's event names (`renamed-steps.ts`).
      expect(task.history.shown?.event).toBe(currentStep(expected.at(-1)!.step).event);
      expect(task.serverStatus).toBe(expected.at(-1)!.step.serverStatus);
    }
  });

  it('T6: stepping back in the history stays inside the moment, and a new moment shows its own newest step', () => {
    const replay = openReplay();
    const early = taskAt(replay, steps[2]!.at);
    early.history.back();
    expect(early.history.shown?.index).toBe(steps[1]!.step.index);
    const later = taskAt(replay, replay.duration);
    expect(later.history.live).toBe(true);
    expect(later.history.shown?.index).toBe(steps.at(-1)!.step.index);
    expect(later.done).toBe(true);
  });

  it('T12: the timeline reads only the polls sent by the slider time, at the recorded interval and TTL', () => {
    const replay = openReplay();
    const answer = run.events.find(
      (event): event is RunEventOf<'tool-answer'> =>
        event.kind === 'tool-answer' && event.answer.kind === 'task',
    );
    if (answer?.answer.kind !== 'task') throw new Error('the run has no CreateTaskResult');
    const created = TaskSchema.parse(answer.answer.task);
    for (const t of [steps[0]!.at, steps[2]!.at, replay.duration]) {
      const task = taskAt(replay, t);
      const sent = recordedBy(t).filter(
        (event) =>
          event.kind === 'wire' &&
          event.entry.direction === 'out' &&
          JSON.stringify(event.entry.message).includes('"tasks/get"'),
      ).length;
      const polls = taskMessages(replay.rows, taskId).filter(
        (m) => m.direction === 'out' && m.method === 'tasks/get',
      );
      expect(polls).toHaveLength(sent);
      expect(task.createdAt).toBe(Date.parse(created.createdAt));
      expect(task.ttlMs).toBe(created.ttlMs);
      expect(task.pollIntervalMs).toBe(created.pollIntervalMs);
      expect(replay.now).toBe(Date.parse(run.recordedAt) + t);
    }
  });

  it('T17: the cancel counts as acknowledged only from the moment its answer arrived', () => {
    const replay = openReplay();
    const wire = run.events.filter((event): event is RunEventOf<'wire'> => event.kind === 'wire');
    const idOf = (message: unknown) =>
      typeof message === 'object' && message !== null && 'id' in message ? message.id : undefined;
    const cancel = wire.find((event) =>
      JSON.stringify(event.entry.message).includes('"tasks/cancel"'),
    )!;
    const answer = wire.find(
      (event) =>
        event.entry.direction === 'in' && idOf(event.entry.message) === idOf(cancel.entry.message),
    )!;
    expect(taskAt(replay, answer.at - 1).news.cancelAckedAt).toBeUndefined();
    expect(taskAt(replay, answer.at).news.cancelAckedAt).toBe(answer.entry.at);
    expect(cancelNews([], taskId).cancelAckedAt).toBeUndefined();
  });

  it("T12: the x-ray at a past step is the recording's reading at that step's time", () => {
    const replay = openReplay();
    const task = taskAt(replay, replay.duration);
    const xrays = run.events.filter(
      (event): event is RunEventOf<'xray'> => event.kind === 'xray' && event.taskId === taskId,
    );
    for (const step of task.history.allSteps) {
      const t = step.at - Date.parse(run.recordedAt);
      const expected = xrays.filter((event) => event.at <= t).at(-1)?.reading;
      expect(task.storedAt(step.at)).toEqual(expected);
    }
  });

  it('T6: the detail follows its task from moment to moment and is gone before the task appears', () => {
    const replay = openReplay();
    replay.openDetail(taskId);
    replay.seek(0);
    expect(replay.detail).toBeUndefined();
    replay.seek(replay.duration);
    expect(replay.detail?.taskId).toBe(taskId);
    replay.closeDetail();
    expect(replay.detail).toBeUndefined();
  });
});
