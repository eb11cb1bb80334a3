import { describe, expect, it } from 'vitest';
import { breaksNothing, faultCount, type FaultEvent } from '../../../src/net/fault-log.ts';

const opened: FaultEvent = { seq: 1, at: 0, kind: 'link.opened', link: 1 };
const dropped: FaultEvent = {
  seq: 2,
  at: 5,
  kind: 'link.dropped',
  link: 1,
  reason: 'dropped by hand',
  inFlight: 0,
};
const started: FaultEvent = { seq: 3, at: 6, kind: 'server.started', generation: 2 };
const killed: FaultEvent = { seq: 4, at: 7, kind: 'server.killed', generation: 2 };

describe('the fault log count', () => {
  it('M3: a clean start (link #1 opened) counts no fault', () => {
    expect(breaksNothing(opened)).toBe(true);
    expect(faultCount([opened])).toBe('no faults');
    expect(faultCount([])).toBe('no faults');
  });

  it('M3: a drop and a kill are faults; the link opening and the server starting again are not', () => {
    expect(breaksNothing(dropped)).toBe(false);
    expect(faultCount([opened, dropped])).toBe('1 fault');
    expect(faultCount([opened, dropped, started, killed])).toBe('2 faults');
  });
});
