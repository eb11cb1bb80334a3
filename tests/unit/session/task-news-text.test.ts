import { describe, expect, it } from 'vitest';
import type { FaultNotice } from '../../../src/session/fault-notices.ts';
import { NO_NEWS, type TaskNewsSnapshot } from '../../../src/session/task-news.ts';
import {
  cancelledButCompletedText,
  lastHeardText,
  staleReport,
  tasksGetSentText,
} from '../../../src/session/task-news-text.ts';

const heard = (status: 'working' | 'completed', at: number): TaskNewsSnapshot['lastHeard'] => ({
  status,
  at,
  statusMessage: 'asking supplier 5 of 10',
  generation: 1,
  store: 'memory',
  expiresAt: undefined,
});
const fault = (kind: FaultNotice['kind'], at: number): FaultNotice => ({
  id: at,
  afterSeq: 0,
  at,
  kind,
  text: kind,
  taskIds: ['t1'],
});

describe('what a card says about its last report', () => {
  it('C8: after a kill the card says what it last heard and how long ago, never working as if fresh', () => {
    const news = { ...NO_NEWS, lastHeard: heard('working', 1000), faults: [fault('kill', 2000)] };
    const stale = staleReport(news, true);
    expect(stale).toBeDefined();
    expect(lastHeardText(stale!, 13_000)).toBe('last heard: working, 12 s ago; server killed');
  });

  it('C8: a report heard after the fault is fresh again; a fault before it changes nothing', () => {
    const news = { ...NO_NEWS, lastHeard: heard('working', 3000), faults: [fault('kill', 2000)] };
    expect(staleReport(news, true)).toBeUndefined();
  });

  it('T13: a task the client stopped following before a terminal status keeps its progress text only as "last heard"', () => {
    const news = { ...NO_NEWS, lastHeard: heard('working', 1000) };
    expect(lastHeardText(staleReport(news, false)!, 1500)).toBe('last heard: working, 0.5 s ago');
    // A terminal report is the last word, never stale.
    expect(staleReport({ ...news, lastHeard: heard('completed', 1000) }, false)).toBeUndefined();
  });

  it('C8: the polls column adds the tasks/get really sent only when it differs from the rounds', () => {
    expect(tasksGetSentText({ ...NO_NEWS, tasksGetSent: 3 }, 3)).toBeUndefined();
    expect(tasksGetSentText({ ...NO_NEWS, tasksGetSent: 5, tasksGetReissued: 2 }, 3)).toBe(
      '5 tasks/get sent, 2 re-issued',
    );
  });

  it('T17: a cancel the job ran on through is not explained as "finished first"', () => {
    const ignored = cancelledButCompletedText({
      ...NO_NEWS,
      cancelAckedAt: 1000,
      ranOnAfterCancel: true,
    });
    expect(ignored).toContain('carried on through the cancel');
    expect(ignored).not.toContain('finished before');
    expect(cancelledButCompletedText({ ...NO_NEWS, cancelAckedAt: 1000 })).toContain(
      'finished before the cancel reached it',
    );
  });
});
