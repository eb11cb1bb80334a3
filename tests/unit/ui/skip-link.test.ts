import { describe, expect, it } from 'vitest';
import { skipLink } from '../../../src/ui/state/skip-link.ts';

describe('skipLink', () => {
  it('names where it goes: the playground, a live detail, a learning view', () => {
    const live = { learning: false, replay: undefined, liveDetail: false };
    expect(skipLink(live).words).toBe('Skip to the playground');
    expect(skipLink({ ...live, liveDetail: true })).toEqual({
      targetId: 'task-detail',
      words: 'Skip to the task detail',
    });
    expect(skipLink({ ...live, learning: true }).targetId).toBe('learn-view');
  });

  it('in a replay, to the replay (the playground is inert beneath it), or its open detail', () => {
    // A live detail left open under the replay is covered too.
    const replay = { learning: false, replay: { detail: false }, liveDetail: true };
    expect(skipLink(replay)).toEqual({ targetId: 'replay-start', words: 'Skip to the replay' });
    expect(skipLink({ ...replay, replay: { detail: true } })).toEqual({
      targetId: 'task-detail',
      words: 'Skip to the task detail',
    });
  });
});
