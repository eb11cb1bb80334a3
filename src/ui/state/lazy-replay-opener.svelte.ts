/**
 * The replay opener as the first screen has it: the page listens for a
 * dropped run file and reads `?run=` from load, but the opener's code
 * (`replay-opener.svelte.ts`, and the loader and player it loads in turn)
 * arrives at the first opening, or as soon as the Run menu or a drag over
 * the window hints at one (`warm`). A run asked for while that code loads
 * waits and then opens (the last one asked for wins, as with the opener
 * itself); if it cannot be loaded, the opening fails with that reason and
 * the live page stays as it was.
 */
import { onFirstUse, reasonOf } from './on-first-use.ts';
import type { ReplayOpener, ReplayOpening } from './replay-opener.svelte.ts';
import { runNamedIn } from './run-address.ts';

/** What this asks of the loaded opener. */
export type RunOpener = Pick<
  ReplayOpener,
  'opening' | 'replay' | 'openFile' | 'openUrl' | 'close' | 'dismissError'
>;

const IDLE: ReplayOpening = { kind: 'idle' };

function loadOpener(): Promise<RunOpener> {
  return import('./replay-opener.svelte.ts').then(({ ReplayOpener }) => new ReplayOpener());
}

export class LazyReplayOpener {
  #opener = $state.raw<RunOpener | undefined>();
  /** The run waiting for the opener's code to arrive. */
  #waiting = $state.raw<string | undefined>();
  /** The opener's code could not be loaded for this run. */
  #failed = $state.raw<{ readonly name: string; readonly error: string } | undefined>();
  readonly #load: () => Promise<RunOpener>;

  constructor(load: () => Promise<RunOpener> = loadOpener) {
    this.#load = onFirstUse(load);
  }

  /** The opening under way or failed, the same shapes while the opener's own code loads. */
  get opening(): ReplayOpening {
    if (this.#failed) return { kind: 'failed', ...this.#failed };
    if (this.#waiting !== undefined)
      return { kind: 'loading', name: this.#waiting, progress: { stage: 'reading', fraction: 0 } };
    return this.#opener?.opening ?? IDLE;
  }

  /** The open replay, if any: it covers the live page. */
  get replay(): RunOpener['replay'] {
    return this.#opener?.replay;
  }

  /** An opening is likely soon (the Run menu touched, a file dragged over): fetch the code now. */
  warm(): void {
    this.#load().catch(() => {
      // Said by the opening that needs it, if one comes; that one tries again.
    });
  }

  openFile(file: File): Promise<void> {
    return this.#open(file.name, (opener) => opener.openFile(file));
  }

  /** `?run=<url>`: the address is kept in the page's own while the replay is open. */
  openUrl(address: string): Promise<void> {
    return this.#open(address, (opener) => opener.openUrl(address));
  }

  /** Opens the run the address names, if it names one (the opener's code loads only then). */
  openFromAddress(): Promise<void> {
    const address = runNamedIn(location.href);
    return address === undefined ? Promise.resolve() : this.openUrl(address);
  }

  /** Back to the live page. */
  close(): void {
    this.#opener?.close();
  }

  dismissError(): void {
    if (this.#failed) this.#failed = undefined;
    else this.#opener?.dismissError();
  }

  async #open(name: string, open: (opener: RunOpener) => Promise<void>): Promise<void> {
    this.#failed = undefined;
    if (!this.#opener) this.#waiting = name;
    let opener: RunOpener;
    try {
      opener = await this.#load();
    } catch (error) {
      // Only the newest run asked for says so (an older one waiting with it is dropped).
      if (this.#waiting === name) {
        this.#waiting = undefined;
        this.#failed = {
          name,
          error: `the replay's code could not be loaded (${reasonOf(error)}); try again once the connection is back`,
        };
      }
      return;
    }
    this.#opener = opener;
    this.#waiting = undefined;
    await open(opener);
  }
}
