/**
 * The client's activity in words, region by region, apart from the server's
 * status (T17: a cancel requested is the client's intent, not an outcome).
 * Checked against the task machine itself: every state it can be in gets a
 * line of its own region, a state with a request in flight reads as busy,
 * the facts recorded with a step reach the words, and no final state is
 * shown as its bare name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taskMachine } from '../../../src/machines/task-machine.ts';
import { isTerminal, TaskStatusSchema } from '../../../src/protocol/task.ts';
import { clientActivity } from '../../../src/ui/statechart/activity.ts';

const facts = { pollIntervalMs: 500, pendingInputs: 0, link: undefined };
const active = taskMachine.root.states['active']!;
const regions = Object.values(active.states);
/** Every region at its initial state: the machine as a task starts. */
const start: Record<string, string> = Object.fromEntries(
  regions.map((r) => [r.key, String(r.config.initial)]),
);
const finals = Object.values(taskMachine.root.states).filter((s) => s.type === 'final');

describe('clientActivity', () => {
  it('T17: gives every state of every region of the task machine its own line in that region, busy when a request is in flight', () => {
    expect(regions.map((r) => r.key)).toEqual(['lifecycle', 'input', 'cancel', 'link']);
    for (const region of regions) {
      const texts = new Set<string>();
      for (const state of Object.values(region.states)) {
        const value = { active: { ...start, [region.key]: state.key } };
        // One open input and a link attempt, so even the quiet states have something to say.
        const lines = clientActivity(value, {
          pollIntervalMs: 500,
          pendingInputs: 1,
          link: { reason: 'dropped', attempt: 1 },
        });
        const own = lines.filter((l) => l.region === region.key);
        const atRest = state.key === start[region.key] && region.key !== 'lifecycle';
        if (atRest && region.key !== 'input') {
          expect(own, `${region.key}.${state.key} is the region at rest`).toEqual([]);
          continue;
        }
        expect(own, `${region.key}.${state.key}`).toHaveLength(1);
        // A state that makes a request (tasks/get on entry, tasks/update and tasks/cancel
        // invoked) has it in flight.
        const sendsOnEntry = state.entry.some(
          (action) => typeof action === 'object' && action !== null && action.type === 'sendPoll',
        );
        if (state.invoke.length > 0 || sendsOnEntry)
          expect(own[0]!.busy, `${region.key}.${state.key}`).toBe(true);
        // T17: whatever the cancel region does, it is the client's intent; only the server says cancelled.
        if (region.key === 'cancel') expect(own[0]!.text).not.toMatch(/\bcancelled\b/);
        texts.add(own[0]!.text);
      }
      // A learner can tell the region's states apart.
      const described = Object.values(region.states).filter(
        (s) => !(s.key === start[region.key] && !['lifecycle', 'input'].includes(region.key)),
      );
      expect(texts.size, region.key).toBe(described.length);
    }
  });

  it('puts the facts recorded with the step into the words: interval, open inputs, link attempt (C8, T12)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 50 }),
        (pollIntervalMs, pendingInputs, attempt) => {
          const lines = clientActivity(
            { active: { ...start, lifecycle: 'waiting', link: 'reconnecting' } },
            { pollIntervalMs, pendingInputs, link: { reason: 'dropped', attempt } },
          );
          const text = (region: string) => lines.find((l) => l.region === region)?.text ?? '';
          expect(text('lifecycle')).toContain(`${pollIntervalMs} ms`);
          expect(text('input')).toContain(`${pendingInputs} open`);
          // The attempt is told once there has been one.
          expect(text('link').includes(`attempt ${attempt}`)).toBe(attempt > 0);
          // The broken link is the first thing said: it explains everything after it.
          expect(lines[0]?.region).toBe('link');
        },
      ),
    );
    const none = clientActivity({ active: start }, facts);
    expect(none.some((l) => l.region === 'input')).toBe(false);
    // Waiting for the next poll is not being busy: nothing is in flight.
    expect(none.find((l) => l.region === 'lifecycle')).toMatchObject({ busy: false });
  });

  it('names each final state of the machine in words, the server-reported ones by their status (T9)', () => {
    expect(finals.length).toBeGreaterThan(0);
    const texts = finals.map((state) => {
      const lines = clientActivity(state.key, facts);
      expect(lines, state.key).toHaveLength(1);
      expect(lines[0]).toMatchObject({ region: 'outcome', busy: false });
      expect(lines[0]!.text, `${state.key} is shown as more than its name`).not.toBe(state.key);
      const status = TaskStatusSchema.safeParse(state.key);
      if (status.success && isTerminal(status.data)) expect(lines[0]!.text).toContain(state.key);
      return lines[0]!.text;
    });
    expect(new Set(texts).size).toBe(finals.length);
    // A state the words do not know yet is still shown, by its name.
    expect(clientActivity('paused-by-a-newer-machine', facts)[0]?.text).toBe(
      'paused-by-a-newer-machine',
    );
  });
});
