import { describe, expect, it } from 'vitest';
import { LazyRunSharing, type RunActions } from '../../../src/ui/state/lazy-run-sharing.ts';

/** Run actions that say which one ran; `loads` counts how often they were fetched. */
function fakeLoader(fail: readonly boolean[] = []) {
  const counter = { loads: 0 };
  const actions: RunActions = {
    saveRun: async () => 'Saved run.json: 3 events',
    exportHar: async () => 'Saved wire.har: 2 requests',
    copyLink: async () => 'Link copied',
  };
  const load = async (): Promise<RunActions> => {
    if (fail[counter.loads++]) throw new TypeError('Failed to fetch dynamically imported module');
    return actions;
  };
  return { counter, load };
}

describe("LazyRunSharing: the Run menu's actions, loaded at first use", () => {
  it("the address's setup problems are there at once, before anything loads", () => {
    const { counter, load } = fakeLoader();
    const sharing = new LazyRunSharing(['rules: not JSON'], load);
    expect(sharing.problems).toEqual(['rules: not JSON']);
    expect(counter.loads).toBe(0);
  });

  it('the first choice loads the actions and runs it; every later one reuses them', async () => {
    const { counter, load } = fakeLoader();
    const sharing = new LazyRunSharing([], load);
    expect(await sharing.copyLink()).toBe('Link copied');
    expect(await sharing.saveRun()).toBe('Saved run.json: 3 events');
    expect(await sharing.exportHar()).toBe('Saved wire.har: 2 requests');
    expect(counter.loads).toBe(1);
  });

  it('warm() fetches them before the choice (the menu was touched)', async () => {
    const { counter, load } = fakeLoader();
    const sharing = new LazyRunSharing([], load);
    sharing.warm();
    expect(counter.loads).toBe(1);
    expect(await sharing.copyLink()).toBe('Link copied');
    expect(counter.loads).toBe(1);
  });

  it('a load that fails is said as a note that stays ("Could not …"), and the next choice tries again', async () => {
    const { counter, load } = fakeLoader([true]);
    const sharing = new LazyRunSharing([], load);
    // Fails quietly (nothing was chosen yet); the choice made while it loads waits for that load.
    sharing.warm();
    const note = await sharing.saveRun();
    expect(note).toMatch(/^Could not save the run: the network or the server did not answer\./);
    expect(note).toContain('try again');
    expect(counter.loads).toBe(1);
    expect(await sharing.copyLink()).toBe('Link copied');
    expect(counter.loads).toBe(2);
  });

  it('an action that throws while it runs (its file writer would not load) is said too', async () => {
    const sharing = new LazyRunSharing([], async () => ({
      saveRun: () => Promise.reject(new Error('no run-file chunk')),
      exportHar: async () => '',
      copyLink: async () => '',
    }));
    expect(await sharing.saveRun()).toMatch(/^Could not save the run: no run-file chunk\./);
  });
});
