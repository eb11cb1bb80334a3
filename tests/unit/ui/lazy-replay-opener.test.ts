import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LazyReplayOpener,
  type RunOpener,
} from '../../../src/ui/state/lazy-replay-opener.svelte.ts';
import type { ReplayOpening } from '../../../src/ui/state/replay-opener.svelte.ts';

/** An opener that records what it was asked to open. */
class FakeOpener implements RunOpener {
  readonly opened: string[] = [];
  opening: ReplayOpening = { kind: 'idle' };
  replay: RunOpener['replay'] = undefined;
  closed = 0;
  async openFile(file: File): Promise<void> {
    this.opened.push(`file:${file.name}`);
  }
  async openUrl(address: string): Promise<void> {
    this.opened.push(`url:${address}`);
  }
  close(): void {
    this.closed++;
  }
  dismissError(): void {
    this.opening = { kind: 'idle' };
  }
}

/** A load the test finishes (or fails) when it chooses, counted. */
function controlledLoad() {
  const opener = new FakeOpener();
  const pending: { resolve(opener: RunOpener): void; reject(error: Error): void }[] = [];
  const load = () =>
    new Promise<RunOpener>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { opener, pending, load };
}

const runFile = (name: string) => new File(['{}'], name, { type: 'application/json' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("LazyReplayOpener: drop and ?run= from load, the opener's code at the first opening", () => {
  it('loads nothing with the page: idle, no replay', () => {
    const { pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    expect(pending).toHaveLength(0);
    expect(replays.opening).toEqual({ kind: 'idle' });
    expect(replays.replay).toBeUndefined();
  });

  it('a file dropped while the code loads is not lost: it shows as loading, then opens', async () => {
    const { opener, pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    const opening = replays.openFile(runFile('run-1.json'));
    expect(pending).toHaveLength(1);
    expect(replays.opening).toMatchObject({ kind: 'loading', name: 'run-1.json' });
    expect(opener.opened).toEqual([]);
    pending[0]!.resolve(opener);
    await opening;
    expect(opener.opened).toEqual(['file:run-1.json']);
    // From now on the opener's own state is what shows.
    opener.opening = { kind: 'failed', name: 'run-1.json', error: 'not a run file' };
    expect(replays.opening).toEqual(opener.opening);
  });

  it('two drops while it loads share the one load and reach the opener in order (the last one wins there)', async () => {
    const { opener, pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    const first = replays.openFile(runFile('a.json'));
    const second = replays.openFile(runFile('b.json'));
    expect(pending).toHaveLength(1);
    expect(replays.opening).toMatchObject({ kind: 'loading', name: 'b.json' });
    pending[0]!.resolve(opener);
    await Promise.all([first, second]);
    expect(opener.opened).toEqual(['file:a.json', 'file:b.json']);
  });

  it('a code load that fails says so for the run asked for, keeps the live page, and the next opening tries again', async () => {
    const { opener, pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    const opening = replays.openFile(runFile('run-2.json'));
    pending[0]!.reject(new TypeError('Failed to fetch dynamically imported module'));
    await opening;
    expect(replays.opening).toMatchObject({ kind: 'failed', name: 'run-2.json' });
    expect(replays.opening.kind === 'failed' && replays.opening.error).toMatch(
      /could not be loaded \(the network or the server did not answer\); try again/,
    );
    expect(replays.replay).toBeUndefined();
    replays.dismissError();
    expect(replays.opening).toEqual({ kind: 'idle' });
    const again = replays.openFile(runFile('run-2.json'));
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(opener);
    await again;
    expect(opener.opened).toEqual(['file:run-2.json']);
  });

  it('warm() fetches the code before any opening (a drag over the window, the Run menu touched)', async () => {
    const { opener, pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    replays.warm();
    expect(pending).toHaveLength(1);
    expect(replays.opening).toEqual({ kind: 'idle' });
    pending[0]!.resolve(opener);
    await replays.openUrl('/runs/a.json');
    expect(pending).toHaveLength(1);
    expect(opener.opened).toEqual(['url:/runs/a.json']);
    replays.close();
    expect(opener.closed).toBe(1);
  });

  it('an address without ?run= loads nothing; one with it opens that run at start', async () => {
    const { opener, pending, load } = controlledLoad();
    const replays = new LazyReplayOpener(load);
    vi.stubGlobal('location', { href: 'http://localhost/?seed=7' });
    await replays.openFromAddress();
    expect(pending).toHaveLength(0);
    vi.stubGlobal('location', { href: 'http://localhost/?seed=7&run=%2Fruns%2Fdrop.json' });
    const opening = replays.openFromAddress();
    expect(replays.opening).toMatchObject({ kind: 'loading', name: '/runs/drop.json' });
    pending[0]!.resolve(opener);
    await opening;
    expect(opener.opened).toEqual(['url:/runs/drop.json']);
  });
});
