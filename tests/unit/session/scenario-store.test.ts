import { describe, expect, it } from 'vitest';
import type { TaskStoreKind } from '../../../src/protocol/worker-control.ts';
import { ScenarioStoreKeeper } from '../../../src/session/scenario-setup.ts';

function page(chosen: TaskStoreKind) {
  const values = new Map<string, string>();
  const kept = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
  const session = {
    storage: { serverStore: { chosen } } as never,
    switched: [] as TaskStoreKind[],
    setServerStore(kind: TaskStoreKind) {
      this.switched.push(kind);
      (this.storage as { serverStore: { chosen: TaskStoreKind } }).serverStore.chosen = kind;
    },
  };
  return { session, kept };
}

describe('a scenario gives the server store back when it closes', () => {
  it('T8: kill-durable-store ran on IndexedDB; closing it brings back Worker memory, the learner’s choice', () => {
    const { session, kept } = page('memory');
    const keeper = new ScenarioStoreKeeper(session, kept);
    keeper.entering();
    session.setServerStore('indexeddb'); // the scenario's setup
    keeper.entering(); // a second scenario, or a restart: the learner's choice is kept, not the scenario's
    keeper.left();
    expect(session.switched).toEqual(['indexeddb', 'memory']);
    // Kept across a reload: a fresh keeper over the same values restores it too.
    const again = new ScenarioStoreKeeper(session, kept);
    again.entering();
    session.setServerStore('indexeddb');
    new ScenarioStoreKeeper(session, kept).left();
    expect(session.switched.at(-1)).toBe('memory');
  });

  it('T8: a scenario on the store the learner already had switches nothing when it closes', () => {
    const { session, kept } = page('indexeddb');
    const keeper = new ScenarioStoreKeeper(session, kept);
    keeper.entering();
    keeper.left();
    keeper.left();
    expect(session.switched).toEqual([]);
  });
});
