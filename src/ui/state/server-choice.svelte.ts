/**
 * "Connect to your own server" as Svelte shows it: the form's fields (URL,
 * bearer token, remember), the remote server's status read from its
 * endpoint (what `server/discover` said, the last problem), and the two
 * clicks: connect (the choice is kept and the page reloads onto it) and back
 * to the built-in server. The rules live in `src/session/remote-choice.ts`.
 */
import { createSubscriber } from 'svelte/reactivity';
import {
  chooseBuiltInServer,
  lastServerUrl,
  readRemoteChoice,
  saveRemoteChoice,
  tokenRemembered,
  type ChoiceStorage,
} from '../../session/remote-choice.ts';
import type { RemoteEndpoint, RemoteStatus } from '../../session/remote-endpoint.ts';
import {
  parseServerUrl,
  proxyAddressIn,
  type ProxyAdvice,
} from '../../session/server-discovery.ts';

export class ServerChoice {
  /** The learner's server the page talks to now; undefined on the built-in one. */
  readonly remote: RemoteEndpoint | undefined;
  url = $state('');
  token = $state('');
  remember = $state(false);
  /** What the learner pasted of the proxy's output, when it does not listen where the advice says. */
  proxyAddress = $state('');
  /** Why the URL entered cannot be used. */
  error = $state<string | undefined>();
  readonly #storage: ChoiceStorage;
  readonly #reload: () => void;
  readonly #watch: () => void;

  constructor(remote: RemoteEndpoint | undefined, storage: ChoiceStorage, reload: () => void) {
    this.remote = remote;
    this.#storage = storage;
    this.#reload = reload;
    this.url = lastServerUrl(storage);
    this.token = readRemoteChoice(storage)?.token ?? '';
    this.remember = tokenRemembered(storage);
    this.#watch = createSubscriber((update) => remote?.onStatus(() => update()));
  }

  get status(): RemoteStatus | undefined {
    this.#watch();
    return this.remote?.status;
  }

  /** Keeps the choice and reloads onto it; false (with {@link error}) when the URL cannot be used. */
  connect(): boolean {
    const parsed = parseServerUrl(this.url);
    if ('error' in parsed) {
      this.error = parsed.error;
      return false;
    }
    this.error = undefined;
    const token = this.token.trim();
    saveRemoteChoice(this.#storage, {
      url: parsed.url,
      token: token || undefined,
      remember: this.remember && token !== '',
    });
    this.#reload();
    return true;
  }

  /** Connects to `url` with the token entered (the proxy the CORS advice names). */
  connectTo(url: string): boolean {
    this.url = url;
    return this.connect();
  }

  /**
   * Connects to the proxy the CORS advice names: at the address pasted from what it printed
   * (a proxy started with `--port`), else at its default address.
   */
  connectToProxy(advice: ProxyAdvice): boolean {
    const pasted = this.proxyAddress.trim();
    return this.connectTo(pasted === '' ? advice.url : (proxyAddressIn(pasted) ?? pasted));
  }

  /** Back to the server in this page's Web Worker. */
  useBuiltIn(): void {
    chooseBuiltInServer(this.#storage);
    this.#reload();
  }
}
