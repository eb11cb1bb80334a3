/**
 * The page's run recorder, started at load (before the session says
 * anything, so a run saved later holds everything), and the Run menu over it
 * whose actions load on first use (`LazyRunSharing`).
 */
import type { ClusterEndpoint } from '../../session/cluster/cluster-endpoint.ts';
import type { PageSession } from '../../session/page-session.ts';
import { currentSetup } from '../../record/apply-setup.ts';
import type { RunScenario } from '../../record/run-file.ts';
import { RunRecorder } from '../../record/run-recorder.ts';
import { LazyRunSharing } from './lazy-run-sharing.ts';
import { watchTaskSteps } from './run-steps.ts';

/**
 * Starts the page's recorder (now, before the session says anything) and the Run menu over it.
 * A run saved while a scenario is open names it (`scenario`, read when saved).
 */
export function recordRun(
  session: PageSession,
  cluster: ClusterEndpoint | undefined,
  remoteUrl: string | undefined,
  problems: readonly string[],
  scenario: () => RunScenario | undefined,
): LazyRunSharing {
  const recorder = new RunRecorder(session, {
    appVersion: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev',
    setup: currentSetup(session, cluster, remoteUrl),
    watchSteps: watchTaskSteps,
  });
  return new LazyRunSharing(problems, () =>
    import('./run-sharing.ts').then(
      ({ RunSharing }) => new RunSharing(session, cluster, remoteUrl, recorder, scenario),
    ),
  );
}
