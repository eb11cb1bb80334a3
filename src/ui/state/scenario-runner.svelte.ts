/**
 * The scenario panel's state: which scenario is open (from `?scenario=<id>`
 * or the Scenarios list), and the run saved in sessionStorage on every
 * change so a page reload (the reload-mid-task scenario does one) carries it
 * on. A thin adapter: the run (its XState machine) keeps the state, and
 * `createSubscriber` makes reading it reactive; nothing is mirrored here.
 *
 * The catalogue and the run machine load on demand (`load()`, see
 * `scenario-library.ts`): every method that needs them waits for them.
 *
 * URL flags: `speed=0.5|1|2|max`; `play` (or `speed=max`) starts playing
 * at once; `drill` turns on "predict the next state"; `plant=wrong-outcome`
 * adds a deliberately wrong expectation, to watch one turn red.
 */
import { createSubscriber } from 'svelte/reactivity';
import type { ScenarioId } from '../../scenarios/index.ts';
import { z } from 'zod';
import {
  parseSpeed,
  SavedRunSchema,
  type RunSnapshot,
  type SavedRun,
  type Speed,
} from '../../scenarios/run-state.ts';
import type { ScenarioRun } from '../../scenarios/run.ts';
import type { ScenarioDefinition, TabLink } from '../../scenarios/scenario.ts';
import type { ScenarioStage } from '../../scenarios/stage.ts';
import type { ScenarioLibrary } from './scenario-library.ts';

const SAVED_KEY = 'mcp-tasks-playground:scenario-run';

interface Saved {
  run: SavedRun;
  planted: boolean;
}

/** The open run, and what makes reading it reactive. */
interface OpenRun {
  run: ScenarioRun;
  track: () => void;
}

export class ScenarioRunner {
  readonly #stage: ScenarioStage;
  #current = $state.raw<OpenRun | undefined>();
  /** A `?scenario=` the page does not know (a typo, or a link from a newer version). */
  #unknownId = $state<string | undefined>();
  #planted = false;
  #library = $state.raw<ScenarioLibrary | undefined>();
  #loading: Promise<ScenarioLibrary> | undefined;

  constructor(stage: ScenarioStage) {
    this.#stage = stage;
  }

  /** Every scenario, in the list's order; undefined until the catalogue has loaded. */
  get catalogue(): ScenarioLibrary['scenarios'] | undefined {
    return this.#library?.scenarios;
  }

  /** Loads the catalogue and the run machine (once; later calls share the first). */
  load(): Promise<ScenarioLibrary> {
    this.#loading ??= import('./scenario-library.ts').then((library) => {
      this.#library = library;
      return library;
    });
    return this.#loading;
  }

  get #run(): ScenarioRun | undefined {
    return this.#current?.run;
  }

  /** The open scenario (with a planted expectation, if asked for). */
  get scenario(): ScenarioDefinition | undefined {
    return this.#current?.run.scenario;
  }

  get snapshot(): RunSnapshot | undefined {
    const open = this.#current;
    open?.track();
    return open?.run.snapshot;
  }

  /** Whether the run holds the server's jobs now (between steps, or while a question waits). */
  get jobsHeld(): boolean {
    const open = this.#current;
    open?.track();
    return open?.run.jobsHeld ?? false;
  }

  get unknownId(): string | undefined {
    return this.#unknownId;
  }

  /** The link the current step asks the learner to open in a second tab, as `?query`. */
  get tabLink(): { label: string; href: string } | undefined {
    const scenario = this.scenario;
    const snapshot = this.snapshot;
    const link = scenario && snapshot ? this.#currentTabLink(scenario, snapshot) : undefined;
    return link
      ? { label: link.label, href: `?${new URLSearchParams(link.query).toString()}` }
      : undefined;
  }

  /**
   * Opens the scenario the address names, once the page is connected: a run
   * saved before a reload carries on; otherwise it waits for Play or Step,
   * or plays at once with `play` or `speed=max`.
   */
  async startFromUrl(): Promise<void> {
    const params = new URLSearchParams(location.search);
    const id = params.get('scenario');
    if (id === null) return;
    const library = await this.load();
    if (!library.isScenarioId(id)) {
      if (id !== null) this.#unknownId = id;
      return;
    }
    const speed = parseSpeed(params.get('speed')) ?? 1;
    const saved = readSaved();
    // Only a run cut off mid-way carries on; a finished one starts afresh.
    const unfinished =
      saved && ['running', 'paused', 'predicting'].includes(saved.run.snapshot.status);
    if (saved && unfinished && saved.run.snapshot.scenarioId === id) {
      this.#open(library, id, {
        speed,
        drill: saved.run.snapshot.drill,
        planted: saved.planted,
        saved: saved.run,
      });
      this.#run?.resume();
      return;
    }
    this.#open(library, id, {
      speed,
      drill: params.has('drill'),
      planted: params.get('plant') === library.PLANT_FLAG,
    });
    if (params.has('play') || speed === 'max') this.#run?.play();
  }

  /** Back and Forward between addresses this page pushed: open (or close) what the address names. */
  async followHistory(): Promise<void> {
    const id = new URLSearchParams(location.search).get('scenario');
    if (id === this.scenario?.id) return;
    const library = id === null ? this.#library : await this.load();
    if (!library?.isScenarioId(id)) {
      this.#dispose();
      return this.#stage.leave?.();
    }
    this.#open(library, id, {
      speed: this.#run?.snapshot.speed ?? 1,
      drill: this.#run?.snapshot.drill ?? false,
      planted: false,
    });
  }

  /** Opens a scenario from the list; the address becomes its shareable link. */
  async open(id: ScenarioId): Promise<void> {
    const library = await this.load();
    const url = new URL(location.href);
    for (const key of ['scenario', 'speed', 'play', 'drill', 'plant', 'follow'])
      url.searchParams.delete(key);
    url.searchParams.set('scenario', id);
    history.pushState(null, '', url);
    this.#open(library, id, {
      speed: this.#run?.snapshot.speed ?? 1,
      drill: this.#run?.snapshot.drill ?? false,
      planted: false,
    });
  }

  /** Closes the panel; the page stays as the run left it, but for the server store, which is the learner's again. */
  close(): void {
    this.#dispose();
    this.#stage.leave?.();
    const url = new URL(location.href);
    for (const key of ['scenario', 'speed', 'play', 'drill', 'plant']) url.searchParams.delete(key);
    history.pushState(null, '', url);
  }

  play(): void {
    this.#run?.play();
  }

  pause(): void {
    this.#run?.pause();
  }

  step(): void {
    this.#run?.step();
  }

  restart(): void {
    this.#run?.restart();
  }

  /** The speed, kept in the address too, so a copied link plays at it. */
  setSpeed(speed: Speed): void {
    this.#run?.setSpeed(speed);
    setFlag('speed', speed === 1 ? undefined : String(speed));
  }

  /** The drill on or off, kept in the address too. */
  setDrill(on: boolean): void {
    this.#run?.setDrill(on);
    setFlag('drill', on ? '' : undefined);
  }

  guess(choice: string): void {
    this.#run?.guess(choice);
  }

  #dispose(): void {
    this.#run?.dispose();
    this.#current = undefined;
    clearSaved();
  }

  #currentTabLink(scenario: ScenarioDefinition, snapshot: RunSnapshot): TabLink | undefined {
    const step = scenario.steps[snapshot.stepIndex];
    const state = snapshot.steps[snapshot.stepIndex]?.status;
    if (
      !step?.tabLink ||
      (state !== 'acting' && state !== 'waiting') ||
      snapshot.startedAt === undefined
    )
      return undefined;
    return step.tabLink(this.#stage.observe(snapshot.startedAt));
  }

  #open(
    library: ScenarioLibrary,
    id: ScenarioId,
    options: { speed: Speed; drill: boolean; planted: boolean; saved?: SavedRun },
  ): void {
    this.#run?.dispose();
    this.#unknownId = undefined;
    this.#planted = options.planted;
    const found = library.scenarioById(id);
    const scenario = options.planted ? library.withPlantedFailure(found) : found;
    const run = new library.ScenarioRun(scenario, this.#stage, {
      speed: options.speed,
      drill: options.drill,
      ...(options.saved ? { saved: options.saved } : {}),
      onchange: (_, saved) => writeSaved({ run: saved, planted: this.#planted }),
    });
    this.#current = { run, track: createSubscriber((update) => run.subscribe(update)) };
    writeSaved({ run: run.saved, planted: this.#planted });
  }
}

/** Sets (or, given undefined, removes) one flag of the address in place: no new history entry. */
function setFlag(key: string, value: string | undefined): void {
  const url = new URL(location.href);
  if (value === undefined) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  // `drill` reads best bare, as the README writes it: ?scenario=x&drill
  history.replaceState(history.state, '', url.href.replace(/([?&]drill)=(?=&|$)/, '$1'));
}

const SavedSchema = z.object({ run: SavedRunSchema, planted: z.boolean() });

function readSaved(): Saved | undefined {
  try {
    const raw = sessionStorage.getItem(SAVED_KEY);
    const saved = raw ? SavedSchema.safeParse(JSON.parse(raw)) : undefined;
    return saved?.success ? saved.data : undefined;
  } catch {
    return undefined;
  }
}

function writeSaved(saved: Saved): void {
  try {
    sessionStorage.setItem(SAVED_KEY, JSON.stringify(saved));
  } catch {
    // No session storage (a locked-down profile): the run just cannot outlive a reload.
  }
}

function clearSaved(): void {
  try {
    sessionStorage.removeItem(SAVED_KEY);
  } catch {
    // As above.
  }
}
