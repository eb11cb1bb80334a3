/**
 * Push as well as poll (T18, C9): one subscriptions/listen stream for the
 * followed tasks, re-opened with the new set when a task is added and after
 * every reconnect; polling carries on when the stream is dropped.
 */
import { describe, expect, it } from 'vitest';
import { faultyStack } from '../helpers/faulty-stack.ts';

const params = (entry: { message: unknown }) =>
  (entry.message as { params: Record<string, unknown> }).params;
const idOf = (entry: { message: unknown }) => (entry.message as { id?: number }).id;
const pushes = (s: Awaited<ReturnType<typeof faultyStack>>) =>
  s.wire.filter(
    (e) =>
      e.direction === 'in' && (e.message as { method?: string }).method === 'notifications/tasks',
  );

describe('TaskSubscription', () => {
  it('T18, C9: listens for the followed taskIds; pushes reach the machine and the stream state counts them', async () => {
    const s = await faultyStack();
    s.subscription.setEnabled(true);
    expect(s.subscription.status).toEqual({ state: 'idle' });
    const actor = s.follow({ workMs: 1200 });
    const { taskId } = actor.getSnapshot().context;
    const listens = s.sent('subscriptions/listen');
    expect(listens).toHaveLength(1);
    expect(params(listens[0]!)['notifications']).toEqual({ taskIds: [taskId] });
    await s.advance(50);
    expect(s.subscription.status).toMatchObject({
      state: 'open',
      id: idOf(listens[0]!),
      agreed: [taskId],
    });
    await s.advance(1500);
    expect(actor.getSnapshot().value).toBe('completed');
    expect(pushes(s).length).toBeGreaterThan(0);
    const counted = s.pushStatuses.map((st) => (st.state === 'open' ? st.pushes : 0));
    expect(Math.max(...counted)).toBeGreaterThan(0);
    expect(s.subscription.status).toEqual({ state: 'idle' }); // nothing left to listen to
    expect(s.sent('tasks/get').length).toBeGreaterThan(0); // polling never stopped
  });

  it('re-opens with the whole set when a task is added, closing the old stream with notifications/cancelled', async () => {
    const s = await faultyStack();
    s.subscription.setEnabled(true);
    const a = s.follow({ workMs: 60_000 }).getSnapshot().context.taskId;
    await s.advance(50);
    const b = s.follow({ workMs: 60_000 }).getSnapshot().context.taskId;
    const listens = s.sent('subscriptions/listen');
    expect(listens.map((l) => params(l)['notifications'])).toEqual([
      { taskIds: [a] },
      { taskIds: [a, b] },
    ]);
    expect(s.sent('notifications/cancelled').map((c) => params(c)['requestId'])).toEqual([
      idOf(listens[0]!),
    ]);
  });

  it('C8: a stream dies with its link and is re-opened, under a new id, after the reconnect', async () => {
    const s = await faultyStack();
    s.subscription.setEnabled(true);
    s.follow({ workMs: 60_000 });
    await s.advance(50);
    s.network.dropConnection('test drop');
    expect(s.subscription.status).toMatchObject({ state: 'waiting' });
    await s.advance(400);
    const listens = s.sent('subscriptions/listen');
    expect(listens).toHaveLength(2);
    expect(listens[1]!.reissueOf).toBeUndefined(); // opened again, not re-issued
    expect(s.subscription.status).toMatchObject({ state: 'open', id: idOf(listens[1]!) });
  });

  it('T18: polling carries on when the stream is dropped, and the task still completes', async () => {
    const s = await faultyStack();
    s.subscription.setEnabled(true);
    const actor = s.follow({ workMs: 3000 });
    await s.advance(600);
    s.subscription.drop();
    expect(s.subscription.status).toMatchObject({ state: 'dropped' });
    const pushesAtDrop = pushes(s).length;
    const pollsAtDrop = s.sent('tasks/get').length;
    await s.advance(3000);
    expect(pushes(s).length).toBe(pushesAtDrop); // the server stopped pushing
    expect(s.sent('tasks/get').length).toBeGreaterThan(pollsAtDrop);
    expect(actor.getSnapshot().value).toBe('completed');
  });

  it('a listen lost on the way is opened again when no acknowledgement comes', async () => {
    const s = await faultyStack();
    s.network.arm(
      {
        label: 'a listen reaches the server',
        when: { direction: 'out', kind: 'request', method: 'subscriptions/listen' },
      },
      { kind: 'lose' },
    );
    s.subscription.setEnabled(true);
    s.follow({ workMs: 60_000 });
    await s.advance(4000);
    expect(s.subscription.status).toMatchObject({ state: 'opening' });
    await s.advance(1100);
    expect(s.sent('subscriptions/listen')).toHaveLength(2);
    expect(s.subscription.status).toMatchObject({ state: 'open' });
  });

  it('switching off closes the stream; no task left closes it too', async () => {
    const s = await faultyStack();
    s.subscription.setEnabled(true);
    s.follow({ workMs: 800 });
    await s.advance(50);
    expect(s.subscription.status.state).toBe('open');
    await s.advance(1500); // the only task completed
    expect(s.subscription.status).toEqual({ state: 'idle' });
    expect(s.sent('notifications/cancelled')).toHaveLength(1);
    s.subscription.setEnabled(false);
    expect(s.subscription.status).toEqual({ state: 'off' });
  });
});
