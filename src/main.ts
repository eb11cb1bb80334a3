/** Page entry: builds the playground state, mounts the UI, then connects (and opens a scenario the address names). */
import { mount } from 'svelte';
import App from './ui/App.svelte';
import { followFromUrl } from './ui/state/follow-from-url.ts';
import { Playground } from './ui/state/playground.svelte.ts';
import { ScenarioRunner } from './ui/state/scenario-runner.svelte.ts';
import { PageStage } from './ui/state/scenario-stage.ts';

const playground = new Playground();
const scenarios = new ScenarioRunner(new PageStage(playground));
mount(App, { target: document.getElementById('app')!, props: { playground, scenarios } });
void playground.start().then(() => {
  scenarios.startFromUrl();
  void followFromUrl(playground);
});
addEventListener('popstate', () => scenarios.followHistory());
addEventListener('pagehide', () => playground.stop());
