/**
 * The client's activity in words, region by region, apart from the server's
 * status (T17: a cancel requested is the client's intent, not an outcome).
 */
import { describe, expect, it } from 'vitest';
import { clientActivity } from '../../../src/ui/statechart/activity.ts';

const facts = { pollIntervalMs: 500, pendingInputs: 0, link: undefined };

describe('clientActivity', () => {
  it('says what each region is doing', () => {
    expect(
      clientActivity(
        { active: { lifecycle: 'waiting', input: 'idle', cancel: 'idle', link: 'online' } },
        facts,
      ).map((l) => l.text),
    ).toEqual(['waiting for the next poll (every 500 ms)']);
    const busy = clientActivity(
      { active: { lifecycle: 'polling', input: 'sending', cancel: 'sending', link: 'online' } },
      facts,
    );
    expect(busy.map((l) => l.region)).toEqual(['lifecycle', 'input', 'cancel']);
    expect(busy.every((l) => l.busy)).toBe(true);
    expect(busy[2]?.text).toBe('cancel requested: tasks/cancel in flight');
  });

  it('shows an open input request and a broken link (C8)', () => {
    const lines = clientActivity(
      { active: { lifecycle: 'offline', input: 'idle', cancel: 'idle', link: 'reconnecting' } },
      { pollIntervalMs: 1000, pendingInputs: 1, link: { reason: 'dropped', attempt: 2 } },
    );
    expect(lines.map((l) => l.text)).toEqual([
      'offline: reconnecting with backoff, attempt 2',
      'a poll is due: it goes out when the link is back',
      'waiting for your answer (1 open)',
    ]);
  });

  it('names the outcome once the machine is final', () => {
    expect(clientActivity('completed', facts)).toEqual([
      { region: 'outcome', text: 'stopped polling: the server reported completed', busy: false },
    ]);
    expect(clientActivity('gone', facts)[0]?.text).toContain('-32602');
  });
});
