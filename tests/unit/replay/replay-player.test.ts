/**
 * The replay's cursor on a simulated clock: play at a speed, stop at the
 * end, pause, step to the next message or state change and back.
 */
import { describe, expect, it } from 'vitest';
import { ReplayPlayer } from '../../../src/replay/replay-player.ts';
import { RunIndex } from '../../../src/replay/run-index.ts';
import { cancelRace, simulatedTicker } from './replay-fixtures.ts';

function player() {
  const ticker = simulatedTicker();
  return { ticker, player: new ReplayPlayer(RunIndex.of(cancelRace()), ticker) };
}

describe('ReplayPlayer', () => {
  it('plays at 2x: the cursor moves 2 s of the run per second of the clock', () => {
    const { ticker, player: replay } = player();
    replay.setSpeed(2);
    replay.play();
    ticker.advance(1000);
    expect(replay.cursor).toBe(2000);
    expect(replay.playing).toBe(true);
  });

  it('plays at 0.1x, and speeds outside 0.1x..10x are clamped', () => {
    const { ticker, player: replay } = player();
    replay.setSpeed(0.01);
    expect(replay.speed).toBe(0.1);
    replay.play();
    ticker.advance(1000);
    expect(replay.cursor).toBeCloseTo(100, 6);
    replay.setSpeed(50);
    expect(replay.speed).toBe(10);
  });

  it('stops at the end of the run, and plays again from the start', () => {
    const { ticker, player: replay } = player();
    replay.setSpeed(10);
    replay.play();
    ticker.advance(5000);
    expect(replay.cursor).toBe(3000);
    expect(replay.playing).toBe(false);
    replay.play();
    expect(replay.cursor).toBe(0);
    expect(replay.playing).toBe(true);
  });

  it('holds the cursor while paused', () => {
    const { ticker, player: replay } = player();
    replay.play();
    ticker.advance(500);
    replay.pause();
    const held = replay.cursor;
    ticker.advance(2000);
    expect(replay.cursor).toBe(held);
  });

  it('pausing between two frames keeps the time played since the last one', () => {
    // A clock whose frames have not come yet (a busy page): time passes, no frame runs.
    let now = 0;
    const replay = new ReplayPlayer(RunIndex.of(cancelRace()), {
      now: () => now,
      later: () => () => {},
    });
    replay.setSpeed(2);
    replay.play();
    now = 300;
    replay.pause();
    expect(replay.cursor).toBe(600);
    now = 1000;
    expect(replay.cursor).toBe(600);
  });

  it('steps to the next message, then the next, skipping other events', () => {
    const { player: replay } = player();
    // At 0 the first message (sent at 0) has happened.
    expect(replay.index.wireAt(replay.moment)).toHaveLength(1);
    expect(replay.stepForward('message')).toBe(true);
    expect(replay.cursor).toBe(10);
    expect(replay.index.wireAt(replay.moment)).toHaveLength(2);
    expect(replay.stepForward('message')).toBe(true);
    expect(replay.cursor).toBe(1000);
  });

  it('steps to the next state change: task step, x-ray or fault', () => {
    const { player: replay } = player();
    replay.stepForward('change');
    expect(replay.cursor).toBe(11);
    replay.stepForward('change');
    expect(replay.cursor).toBe(12);
    replay.stepForward('change');
    expect(replay.cursor).toBe(1001);
    expect(replay.index.faultsAt(replay.moment).map((f) => f.kind)).toEqual(['drop']);
  });

  it('steps back to the message before the last one shown; stepping pauses', () => {
    const { ticker, player: replay } = player();
    replay.seek(1600);
    replay.play();
    replay.stepBack('message');
    expect(replay.playing).toBe(false);
    expect(replay.cursor).toBe(1000);
    ticker.advance(1000);
    expect(replay.cursor).toBe(1000);
  });

  it('says so when there is nothing further to step to', () => {
    const { player: replay } = player();
    replay.seek(3000);
    expect(replay.stepForward('message')).toBe(false);
    expect(replay.cursor).toBe(3000);
  });

  it('tells its listeners of every change', () => {
    const { ticker, player: replay } = player();
    let changes = 0;
    replay.onChange(() => changes++);
    replay.play();
    ticker.advance(160);
    replay.pause();
    expect(changes).toBe(12);
  });

  it('scrubbing (the slider dragged) seeks once a frame, to the newest time asked for', () => {
    const { ticker, player: replay } = player();
    let changes = 0;
    replay.onChange(() => changes++);
    for (const t of [100, 700, 1200, 1600]) replay.scrub(t);
    // Nothing moves before the frame: a drag reports faster than frames.
    expect(replay.cursor).toBe(0);
    ticker.advance(16);
    expect(replay.cursor).toBe(1600);
    expect(changes).toBe(1);
    ticker.advance(160);
    expect(changes).toBe(1);
  });

  it('a step after a scrub steps from where the slider was dragged; a seek drops a scrub not made yet', () => {
    const { ticker, player: replay } = player();
    replay.scrub(1600);
    replay.stepBack('message');
    expect(replay.cursor).toBe(1000);
    replay.scrub(2500);
    replay.seek(200);
    ticker.advance(32);
    expect(replay.cursor).toBe(200);
  });
});
