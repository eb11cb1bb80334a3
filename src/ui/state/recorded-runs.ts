/**
 * The runs shipped with the app (`public/runs/`, made by `npm run
 * record-runs`), each recorded from one scenario: the scenario's list entry
 * and panel link to it ("Watch a recording"), which opens the replay with
 * `?run=runs/<file>`. Ids are plain strings here (a `ScenarioDefinition`'s), so the scenario
 * catalogue, which loads on demand, need not load to draw a link. A unit test parses every file there and checks that
 * each one named here exists and was recorded from its scenario.
 */
import type { ScenarioId } from '../../scenarios/index.ts';

/** The run file recorded from each scenario that has one, in `public/runs/`. */
export const RECORDED_RUNS: Partial<Readonly<Record<ScenarioId, string>>> = {
  'cancel-race': 'cancel-race.json',
  'lost-handle': 'lost-handle.json',
  'cluster-takeover': 'cluster-takeover.json',
};

/** The folder under the app's base path that holds them. */
export const RUNS_FOLDER = 'runs';

/** What `?run=` names for a scenario's recording: relative to the app's own page, so the base path holds. */
export function recordingRun(id: string): string | undefined {
  const file = Object.hasOwn(RECORDED_RUNS, id) ? RECORDED_RUNS[id as ScenarioId] : undefined;
  return file === undefined ? undefined : `${RUNS_FOLDER}/${file}`;
}

/**
 * The link to a scenario's recording: the app's page (`base`, Vite's
 * `BASE_URL`, "/" or "/playground/" or "./") with `?run=runs/<file>`, which
 * the page fetches relative to itself, so under `base`.
 */
export function recordingHref(id: string, base: string): string | undefined {
  const run = recordingRun(id);
  if (run === undefined) return undefined;
  const page = base.endsWith('/') ? base : `${base}/`;
  return `${page}?run=${encodeURIComponent(run).replaceAll('%2F', '/')}`;
}
