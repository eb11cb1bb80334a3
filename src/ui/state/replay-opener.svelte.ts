/**
 * Whether a replay covers the page, and opening one: from a picked or
 * dropped file, or from the address (`?run=<url>`, kept there while the
 * replay is open so a reload opens it again). Loaded at the first opening
 * (`LazyReplayOpener` stands in for it until then). While it loads the page shows
 * the progress; a run that cannot be opened leaves one message naming what
 * is wrong, and the live page as it was. The live session is never touched:
 * its tasks keep polling beneath the replay, and Close shows it again.
 */
import type { LoadProgress, LoadResult } from '../../replay/run-loader.ts';
import type { Replay } from './replay.svelte.ts';
import { RUN_PARAM, runNamedIn } from './run-address.ts';

/**
 * The loader, the player and the replay's state load at the first opening, not with the page:
 * most visits never open a run (the first screen's bundle stays small).
 */
function replayModules() {
  return Promise.all([
    import('../../replay/run-loader.ts'),
    import('../../replay/replay-player.ts'),
    import('./replay.svelte.ts'),
  ]).then(([loader, player, replay]) => ({ ...loader, ...player, ...replay }));
}

export type ReplayOpening =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly name: string; readonly progress: LoadProgress }
  | { readonly kind: 'failed'; readonly name: string; readonly error: string };

export class ReplayOpener {
  #opening = $state.raw<ReplayOpening>({ kind: 'idle' });
  #replay = $state.raw<Replay | undefined>();
  /** Counts openings, so a slow load finished after a newer one began is dropped. */
  #attempt = 0;

  get opening(): ReplayOpening {
    return this.#opening;
  }

  /** The open replay, if any: it covers the live page. */
  get replay(): Replay | undefined {
    return this.#replay;
  }

  openFile(file: File): Promise<void> {
    this.#setAddress(undefined);
    return this.#open(file.name, (onProgress) =>
      replayModules().then(({ loadRunFile }) => loadRunFile(file, onProgress)),
    );
  }

  /** `?run=<url>`: the address is kept in the page's own while the replay is open. */
  openUrl(address: string): Promise<void> {
    this.#setAddress(address);
    return this.#open(address, (onProgress) =>
      replayModules().then(({ loadRunUrl }) => loadRunUrl(address, location.href, onProgress)),
    );
  }

  /** Back to the live page. */
  close(): void {
    this.#replay?.close();
    this.#replay = undefined;
    this.#setAddress(undefined);
  }

  dismissError(): void {
    if (this.#opening.kind === 'failed') this.#opening = { kind: 'idle' };
  }

  async #open(
    name: string,
    load: (onProgress: (progress: LoadProgress) => void) => Promise<LoadResult>,
  ): Promise<void> {
    const attempt = ++this.#attempt;
    this.#opening = { kind: 'loading', name, progress: { stage: 'reading', fraction: 0 } };
    const result = await load((progress) => {
      if (attempt === this.#attempt) this.#opening = { kind: 'loading', name, progress };
    });
    if (attempt !== this.#attempt) return;
    if (!result.ok) {
      this.#opening = { kind: 'failed', name, error: result.error };
      if (runNamedIn(location.href) === name) this.#setAddress(undefined);
      return;
    }
    const { Replay, frameTicker } = await replayModules();
    if (attempt !== this.#attempt) return;
    this.#opening = { kind: 'idle' };
    this.#replay?.close();
    this.#replay = new Replay(
      result.index,
      {
        name,
        recordedAt: result.run.recordedAt,
        appVersion: result.run.app.version,
        scenario: result.run.scenario,
      },
      frameTicker,
    );
  }

  /** Puts `?run=` in the address, or takes it out, without a history entry. */
  #setAddress(address: string | undefined): void {
    const url = new URL(location.href);
    if (address === undefined) url.searchParams.delete(RUN_PARAM);
    else url.searchParams.set(RUN_PARAM, address);
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  }
}
