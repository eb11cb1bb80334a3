/**
 * The Run menu's Save run, Export HAR and Copy link as the first screen has
 * them: the address's setup problems are there at once, and the code behind
 * the three actions (`run-sharing.ts`, over the recorder `record-run.ts`
 * started at load) loads at the first one, or as soon as the menu is touched
 * (`warm`), so the first screen's bundle does not carry it.
 */
import { onFirstUse, reasonOf } from './on-first-use.ts';
import type { RunSharing } from './run-sharing.ts';

/** What the menu asks of the loaded actions. */
export type RunActions = Pick<RunSharing, 'saveRun' | 'exportHar' | 'copyLink'>;

export class LazyRunSharing {
  /** What was wrong in the address's setup: one line per parameter left out. */
  readonly problems: readonly string[];
  readonly #actions: () => Promise<RunActions>;

  constructor(problems: readonly string[], load: () => Promise<RunActions>) {
    this.problems = problems;
    this.#actions = onFirstUse(load);
  }

  /** Starts loading the actions (the menu was touched): the click that follows finds them there. */
  warm(): void {
    this.#actions().catch(() => {
      // Said by the action that needs them, if one is chosen; a later one tries again.
    });
  }

  saveRun(): Promise<string> {
    return this.#run('save the run', (actions) => actions.saveRun());
  }

  exportHar(): Promise<string> {
    return this.#run('export the wire', (actions) => actions.exportHar());
  }

  copyLink(): Promise<string> {
    return this.#run('copy the link', (actions) => actions.copyLink());
  }

  /** A failed load (of the actions, or of the file writer an action loads) is said, never thrown. */
  async #run(doing: string, act: (actions: RunActions) => Promise<string>): Promise<string> {
    try {
      return await act(await this.#actions());
    } catch (error) {
      return `Could not ${doing}: ${reasonOf(error)}. If the page lost its connection, try again once it is back.`;
    }
  }
}
