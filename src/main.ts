/**
 * Page entry: builds the page session (the server worker, the network, the
 * client, the followed tasks) and its Svelte view, mounts the UI, then
 * starts the session (and opens a scenario the address names).
 */
import { mount } from 'svelte';
import { pageSlices } from './clock/frame-slices.ts';
import { realTimers } from './clock/timers.ts';
import { WorldClock } from './clock/world-clock.ts';
import { markRestoreForBench } from './session/bench-marks.ts';
import { PageSession } from './session/page-session.ts';
import { browserChoiceStorage, readRemoteChoice } from './session/remote-choice.ts';
import { ClusterEndpoint } from './session/cluster/cluster-endpoint.ts';
import { WorkerEndpoint } from './session/server-endpoint.ts';
import { WorldTime } from './session/world-time.ts';
import { applyAfterStart, applyBeforeStart } from './record/apply-setup.ts';
import { readSetupAddress } from './record/setup-address.ts';
import App from './ui/App.svelte';
import { clock as uiClock } from './ui/state/clock.ts';
import { followFromUrl } from './ui/state/follow-from-url.ts';
import { Playground } from './ui/state/playground.svelte.ts';
import { ScenarioRunner } from './ui/state/scenario-runner.svelte.ts';
import { ServerChoice } from './ui/state/server-choice.svelte.ts';
import { TimeControl } from './ui/state/time-control.svelte.ts';
import { PageStage } from './ui/state/scenario-stage.ts';
import { recordRun } from './ui/state/record-run.ts';
import { keepSeedInAddress } from './ui/state/seed-address.ts';
import { LazyReplayOpener } from './ui/state/lazy-replay-opener.svelte.ts';
import { fetchLaterParts } from './ui/state/later-parts.ts';
import { loadOwnServerPanel } from './ui/state/connect-parts.ts';

// Not top-level `await`: a lazily loaded chunk (the remote endpoint) imports modules of this
// entry's chunk, and it could not finish loading while this module is still evaluating.
void start();

async function start(): Promise<void> {
  // The learner's own server when one was chosen (the page reloads to switch); else the page's
  // cluster of workers: one node is today's single worker, the cluster control adds nodes.
  const storage = browserChoiceStorage();
  const choice = readRemoteChoice(storage);
  // Its Connect panel is not the built-in page's: fetched with the endpoint, ready when drawn.
  if (choice) void loadOwnServerPanel().catch(() => undefined);
  // The remote endpoint (and the SDK's HTTP client transport under it) loads only when chosen,
  // so the built-in playground's first load does not carry it.
  const remote = choice
    ? new (await import('./session/remote-endpoint.ts')).RemoteEndpoint({
        url: choice.url,
        token: choice.token,
        origin: location.origin,
      })
    : undefined;
  const cluster = remote
    ? undefined
    : new ClusterEndpoint({ makeNode: () => new WorkerEndpoint() });
  const endpoint = remote ?? cluster ?? new WorkerEndpoint();
  // A shared setup in the address (`?seed=...&rules=...`, "Copy link") applies before the first
  // message, so the colleague's page draws the same faults in the same order.
  const shared = readSetupAddress(new URLSearchParams(location.search));
  // One world clock for every timer of the page, the network and the server's workers (Pause time).
  // A thousand polls falling due together are cut into tasks where a frame is due (frame-slices.ts).
  const world = new WorldClock(realTimers, { slices: pageSlices() });
  const session = new PageSession({ endpoint, seed: shared.setup.seed, scheduler: world });
  const time = new TimeControl(new WorldTime(world, session.network, endpoint));
  uiClock.readFrom(() => world.now());
  cluster?.reportTo(session.network.log, () => session.network.scheduler.now());
  applyBeforeStart(session, cluster, shared.setup);
  // The seed is in the address from now on, so a reload keeps the same faults in the same order.
  keepSeedInAddress(session.network);
  // Recording starts with the page, before the session says anything; the Run menu's actions
  // load at its first use. A run saved while a scenario is open names it (read when saved, once
  // `scenarios` exists).
  const sharing = recordRun(session, cluster, choice?.url.href, shared.problems, () =>
    scenarios.scenario ? { id: scenarios.scenario.id, title: scenarios.scenario.title } : undefined,
  );
  const server = new ServerChoice(remote, storage, () => location.reload());
  markRestoreForBench(session);
  const playground = new Playground(session, cluster);
  const scenarios = new ScenarioRunner(new PageStage(playground));
  // Listens for a dropped run from load; the opener's code loads with the first run opened.
  const replays = new LazyReplayOpener();
  // "Check this server": raw HTTP checks, so only for a server over HTTP (loaded with it, like the
  // remote endpoint); the suite itself loads on first use.
  const check = choice
    ? new (await import('./ui/state/server-check.svelte.ts')).ServerCheck({
        target: { url: choice.url.href, token: choice.token },
        tools: () => playground.tools,
        taskTools: () => playground.tasks.map((task) => task.toolName),
      })
    : undefined;
  mount(App, {
    target: document.getElementById('app')!,
    props: { playground, scenarios, server, sharing, check, replays, time },
  });
  // A run named in the address (`?run=<url>`) opens over the live page, which starts as ever
  // (the replay's code is fetched at once then, and only then).
  void replays.openFromAddress();
  void session.start().then(() => {
    applyAfterStart(session, shared.setup);
    void scenarios.startFromUrl();
    void followFromUrl(session);
    // The scenario catalogue, the task card and the results list are not on the first screen's
    // path: fetch them once the page is idle (so the first Call's card and result find their code).
    const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
    idle(() => {
      void scenarios.load();
      fetchLaterParts();
    });
  });
  addEventListener('popstate', () => void scenarios.followHistory());
  addEventListener('pagehide', () => void session.close());
}
