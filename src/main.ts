/**
 * Page entry: builds the page session (the server worker, the network, the
 * client, the followed tasks) and its Svelte view, mounts the UI, then
 * starts the session (and opens a scenario the address names).
 */
import { mount } from 'svelte';
import { markRestoreForBench } from './session/bench-marks.ts';
import { PageSession } from './session/page-session.ts';
import { ClusterEndpoint } from './session/cluster/cluster-endpoint.ts';
import { WorkerEndpoint } from './session/server-endpoint.ts';
import App from './ui/App.svelte';
import { followFromUrl } from './ui/state/follow-from-url.ts';
import { Playground } from './ui/state/playground.svelte.ts';
import { ScenarioRunner } from './ui/state/scenario-runner.svelte.ts';
import { PageStage } from './ui/state/scenario-stage.ts';

// One node is today's single worker; the cluster control adds nodes behind the page's balancer.
const cluster = new ClusterEndpoint({ makeNode: () => new WorkerEndpoint() });
const session = new PageSession({ endpoint: cluster });
cluster.reportTo(session.network.log, () => session.network.scheduler.now());
markRestoreForBench(session);
const playground = new Playground(session, cluster);
const scenarios = new ScenarioRunner(new PageStage(playground));
mount(App, { target: document.getElementById('app')!, props: { playground, scenarios } });
void session.start().then(() => {
  scenarios.startFromUrl();
  void followFromUrl(session);
});
addEventListener('popstate', () => scenarios.followHistory());
addEventListener('pagehide', () => void session.close());
