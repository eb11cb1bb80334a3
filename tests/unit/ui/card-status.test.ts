/**
 * The card's status badge: the status heard while following or once final;
 * once the client stopped without a final status, only what it last heard.
 */
import { describe, expect, it } from 'vitest';
import { cardStatus, STOPPED_BECAUSE } from '../../../src/ui/state/card-status.ts';

describe('cardStatus', () => {
  it('T6: a followed task shows the status the client last heard', () => {
    expect(cardStatus('working', false, undefined)).toEqual({ kind: 'heard', status: 'working' });
    expect(cardStatus('input_required', false, undefined)).toEqual({
      kind: 'heard',
      status: 'input_required',
    });
  });

  it('T9: a final status seen stays the status', () => {
    expect(cardStatus('completed', true, 'completed')).toEqual({
      kind: 'heard',
      status: 'completed',
    });
    expect(cardStatus('cancelled', true, undefined)).toEqual({
      kind: 'heard',
      status: 'cancelled',
    });
  });

  it('T13: TTL passed, -32602 and "stopped following" leave only what was last heard', () => {
    expect(cardStatus('working', true, 'expired')).toEqual({
      kind: 'stale',
      status: 'working',
      why: 'ttl',
    });
    expect(cardStatus('working', true, 'gone')).toEqual({
      kind: 'stale',
      status: 'working',
      why: 'gone',
    });
    expect(cardStatus('input_required', true, undefined)).toEqual({
      kind: 'stale',
      status: 'input_required',
      why: 'forgotten',
    });
    expect(STOPPED_BECAUSE.ttl).toContain('because the TTL passed');
  });
});
