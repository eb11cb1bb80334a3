/**
 * Where a resumed page's time goes, read at the page's ports (nothing in
 * `src/`): per task, when its
 * first `tasks/get` left after the reload and when its answer came back,
 * against what the page before the reload last did for it (its last
 * `tasks/get` out and answer in, kept through the reload in
 * `sessionStorage` as that page hides). T12 has a resumed task wait for the
 * interval the server asked for since the last poll, so a task polled just
 * before the reload is due up to one interval after it; the lateness past
 * that due time is what the page itself adds.
 */
import type { Page } from '@playwright/test';
import { nextPollDueAt } from '../../src/machines/task-machine-timing.ts';

/** Run before the page's scripts, on every load (a string: tsx's helpers do not exist in the page). */
export const TIMELINE_IN_PAGE = `
  (() => {
    const probe = { sent: {}, answered: {}, lastSent: {}, lastAnswered: {}, asked: {} };
    window.__resumeTimeline = probe;
    const each = (data) => (Array.isArray(data) ? data : [data]);
    const asking = new Map();
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      for (const m of each(message)) {
        if (m?.method !== 'tasks/get') continue;
        const id = m.params?.taskId;
        asking.set(m.id, id);
        probe.sent[id] ??= performance.now();
        probe.lastSent[id] = Date.now();
      }
      return post.call(this, message, ...rest);
    };
    const listen = MessagePort.prototype.addEventListener;
    MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
      if (type === 'message')
        listen.call(this, 'message', (event) => {
          for (const m of each(event.data)) {
            const id = asking.get(m?.id);
            if (id === undefined) continue;
            asking.delete(m.id);
            probe.answered[id] ??= performance.now();
            probe.lastAnswered[id] = Date.now();
            const interval = m.result?.pollIntervalMs;
            if (typeof interval === 'number') probe.asked[id] = interval;
          }
        });
      return listen.call(this, type, listener, ...rest);
    };
    addEventListener('pagehide', () =>
      sessionStorage.setItem('resumeTimeline.before', JSON.stringify({
        lastSent: probe.lastSent, lastAnswered: probe.lastAnswered, asked: probe.asked,
      })),
    );
  })();
`;

interface InPage {
  origin: number;
  sent: Record<string, number>;
  answered: Record<string, number>;
  before: {
    lastSent: Record<string, number>;
    lastAnswered: Record<string, number>;
    asked: Record<string, number>;
  } | null;
}

/** One resumed page's timeline, in ms from navigation start. */
export interface ResumeTimeline {
  /** The first and the last task's first `tasks/get` after the reload. */
  firstSentMs: number;
  lastSentMs: number;
  /** Tasks whose `tasks/get` was out (not answered) as the page before hid. */
  outAtHide: number;
  /** The task sent last: when it was due (`nextPollDueAt` of its last send and answer), and whether it was out at hide. */
  lastDueMs: number;
  lastWasOut: boolean;
  /** Per task, its first `tasks/get`'s lateness past due time: p50 and max. */
  lateP50Ms: number;
  lateMaxMs: number;
  /** From the last task's first tasks/get out to the last first answer in: what the server took. */
  answersBackMs: number;
}

/** Reads the timeline of the page now shown for the tasks `ids`. */
export async function readTimeline(page: Page, ids: readonly string[]): Promise<ResumeTimeline> {
  const seen = await page.evaluate((): InPage => {
    const probe = (window as unknown as { __resumeTimeline: Omit<InPage, 'origin' | 'before'> })
      .__resumeTimeline;
    const before = sessionStorage.getItem('resumeTimeline.before');
    return { ...probe, origin: performance.timeOrigin, before: before ? JSON.parse(before) : null };
  });
  const toPage = (epoch: number) => epoch - seen.origin;
  const rows = ids.map((id) => {
    const lastSent = seen.before?.lastSent[id] ?? NaN;
    const lastAnswered = seen.before?.lastAnswered[id] ?? NaN;
    const out = !(lastAnswered >= lastSent);
    // T12: the machine's own rule, from the last send and its answer.
    const due = toPage(nextPollDueAt(lastSent, lastAnswered, seen.before?.asked[id] ?? NaN));
    const sent = seen.sent[id] ?? NaN;
    return { out, due, sent, answered: seen.answered[id] ?? NaN, late: sent - Math.max(due, 0) };
  });
  const bySent = rows.toSorted((a, b) => a.sent - b.sent);
  const lates = rows.map((r) => r.late).toSorted((a, b) => a - b);
  const last = bySent.at(-1)!;
  return {
    firstSentMs: bySent[0]!.sent,
    lastSentMs: last.sent,
    outAtHide: rows.filter((r) => r.out).length,
    lastDueMs: last.due,
    lastWasOut: last.out,
    lateP50Ms: lates[Math.floor(lates.length / 2)]!,
    lateMaxMs: lates.at(-1)!,
    answersBackMs: Math.max(...rows.map((r) => r.answered)) - last.sent,
  };
}

/** One log line. */
export function formatTimeline(t: ResumeTimeline): string {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  return (
    `first tasks/get ${ms(t.firstSentMs)}, last ${ms(t.lastSentMs)} ` +
    `(due ${ms(t.lastDueMs)}${t.lastWasOut ? ', its tasks/get was out at the reload' : ''}); ` +
    `${t.outAtHide} tasks/get out at the reload; lateness past due: p50 ${ms(t.lateP50Ms)}, max ${ms(t.lateMaxMs)}; ` +
    `the last answer ${ms(t.answersBackMs)} after the last first tasks/get`
  );
}
