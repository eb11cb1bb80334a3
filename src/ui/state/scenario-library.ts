/**
 * What running a scenario needs beyond its snapshot types: the catalogue
 * (about a fifth of the page's script, most of it the lessons' text), the
 * run machine and the planted failure. `ScenarioRunner` loads this module
 * with a dynamic `import()`, so the first screen does not wait for it: it is
 * fetched when the address names a scenario, when the Scenarios list opens,
 * or when the page is idle after connecting.
 */
export { isScenarioId, scenarioById, scenarios } from '../../scenarios/index.ts';
export { PLANT_FLAG, withPlantedFailure } from '../../scenarios/planted.ts';
export { ScenarioRun } from '../../scenarios/run.ts';

export type ScenarioLibrary = typeof import('./scenario-library.ts');
