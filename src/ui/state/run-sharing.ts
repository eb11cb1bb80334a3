/**
 * "Save run", "Export HAR" and "Copy link" over the page's recorder (listening
 * since load) and the setup now. Loaded at the Run menu's first use
 * (`LazyRunSharing`, which the header's `RunMenu.svelte` shows); plain
 * TypeScript the tests can drive.
 */
import type { ClusterEndpoint } from '../../session/cluster/cluster-endpoint.ts';
import type { PageSession } from '../../session/page-session.ts';
import { currentSetup } from '../../record/apply-setup.ts';
import type { RunScenario } from '../../record/run-file.ts';
import type { RunRecorder } from '../../record/run-recorder.ts';
import { SETUP_PARAMS, setupParams } from '../../record/setup-address.ts';

/** `2026-07-28T10-00-00` for a file name (no colons: some systems refuse them). */
export function fileTime(at: number): string {
  return new Date(at).toISOString().slice(0, 19).replaceAll(':', '-');
}

/** Offers `text` as a file download. */
function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has its own copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export class RunSharing {
  readonly recorder: RunRecorder;
  readonly #session: PageSession;
  readonly #cluster: ClusterEndpoint | undefined;
  readonly #remoteUrl: string | undefined;
  /** The scenario open on the page now, if one is: a saved run names it. */
  readonly #scenario: () => RunScenario | undefined;

  constructor(
    session: PageSession,
    cluster: ClusterEndpoint | undefined,
    remoteUrl: string | undefined,
    recorder: RunRecorder,
    scenario: () => RunScenario | undefined = () => undefined,
  ) {
    this.#session = session;
    this.#scenario = scenario;
    this.#cluster = cluster;
    this.#remoteUrl = remoteUrl;
    this.recorder = recorder;
  }

  /**
   * Downloads the run so far as `run-<time>.json` (naming the scenario open now, if any). The
   * run is taken at the click; the writer loads then (the recorder listens from load, the file
   * format is needed only here).
   */
  async saveRun(): Promise<string> {
    const scenario = this.#scenario();
    const run = { ...this.recorder.run(), ...(scenario ? { scenario } : {}) };
    const { serializeRunFile } = await import('../../record/run-file.ts');
    const name = `run-${fileTime(Date.now())}.json`;
    download(name, serializeRunFile(run), 'application/json');
    return `Saved ${name}: ${run.events.length} events`;
  }

  /** Downloads the wire as HAR 1.2 (the converter loads at the first export). */
  async exportHar(): Promise<string> {
    const run = this.recorder.run();
    const { harOf } = await import('../../record/har.ts');
    const har = harOf(run);
    const name = `wire-${fileTime(Date.now())}.har`;
    download(name, JSON.stringify(har, null, 2), 'application/json');
    return `Saved ${name}: ${har.log.entries.length} requests`;
  }

  /** This page's address with the setup now in it (other parameters, e.g. `view`, kept). */
  link(): { url: string; unshared: number } {
    const url = new URL(location.href);
    for (const name of SETUP_PARAMS) url.searchParams.delete(name);
    const { params, unshared } = setupParams(
      currentSetup(this.#session, this.#cluster, this.#remoteUrl),
    );
    for (const [name, value] of params) url.searchParams.set(name, value);
    return { url: url.toString(), unshared: unshared.length };
  }

  /** Copies the link; says what was copied, for the screen and for screen readers. */
  async copyLink(): Promise<string> {
    const { url, unshared } = this.link();
    const fired = this.#session.network.rules.fired.length;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      return `Could not copy: the browser refused the clipboard. The link: ${url}`;
    }
    return `Link copied: seed, link conditions, rules, store, cluster and the declare switch${
      fired > 0
        ? ` (the ${fired === 1 ? 'rule that has fired is' : `${fired} rules that have fired are`} in it, armed again for whoever opens it)`
        : ''
    }${
      unshared > 0
        ? `; ${unshared} rule${unshared === 1 ? '' : 's'} armed by a scenario cannot go in a link`
        : ''
    }`;
  }
}
