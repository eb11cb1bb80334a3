/**
 * Spreading the drawn cards' redraws after a seek over frames, on a
 * simulated clock: each frame runs the oldest work first, at least one
 * piece and more only within the budget; asking again replaces the work
 * but keeps its place, so a drag that asks every card each frame still
 * brings every card up in turn.
 */
import { describe, expect, it } from 'vitest';
import { FrameStagger } from '../../../src/replay/frame-stagger.ts';
import { manualTicker } from './replay-fixtures.ts';

describe('FrameStagger', () => {
  it('runs nothing at once, then one costly piece per frame, the oldest first', () => {
    const ticker = manualTicker();
    const stagger = new FrameStagger(ticker, 8);
    const ran: string[] = [];
    const [a, b, c] = [{}, {}, {}];
    for (const [key, name] of [
      [a, 'a'],
      [b, 'b'],
      [c, 'c'],
    ] as const)
      stagger.request(key, () => {
        ran.push(name);
        ticker.spend(20);
      });
    expect(ran).toEqual([]);
    ticker.frame();
    expect(ran).toEqual(['a']);
    ticker.frame();
    ticker.frame();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(stagger.waiting).toBe(0);
  });

  it('runs cheap pieces together while the frame is within its budget', () => {
    const ticker = manualTicker();
    const stagger = new FrameStagger(ticker, 8);
    const ran: number[] = [];
    for (let i = 0; i < 10; i++)
      stagger.request({}, () => {
        ran.push(i);
        ticker.spend(3);
      });
    ticker.frame();
    // 3 ms each: the third one takes the frame to 9 ms, past the budget of 8.
    expect(ran).toEqual([0, 1, 2]);
  });

  it('asking again replaces the work and keeps its place: every card comes up in turn during a drag', () => {
    const ticker = manualTicker();
    const stagger = new FrameStagger(ticker, 8);
    const shown = new Map<object, number>();
    const cards = [{}, {}, {}];
    for (let frame = 1; frame <= 6; frame++) {
      // Each frame of a drag asks every card to show this frame's moment.
      for (const card of cards)
        stagger.request(card, () => {
          shown.set(card, frame);
          ticker.spend(20);
        });
      ticker.frame();
    }
    // Round robin: each card was brought up twice in six frames, each to the newest moment then.
    expect(cards.map((card) => shown.get(card))).toEqual([4, 5, 6]);
  });

  it('cancel drops one piece, close drops them all', () => {
    const ticker = manualTicker();
    const stagger = new FrameStagger(ticker, 8);
    const ran: string[] = [];
    const [a, b] = [{}, {}];
    stagger.request(a, () => ran.push('a'));
    stagger.request(b, () => ran.push('b'));
    stagger.cancel(a);
    ticker.frame();
    expect(ran).toEqual(['b']);
    stagger.request(a, () => ran.push('a again'));
    stagger.close();
    ticker.frame();
    expect(ran).toEqual(['b']);
  });
});
