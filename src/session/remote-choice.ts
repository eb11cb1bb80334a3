/**
 * Which server the page talks to: the built-in one (the Web Worker), or the
 * learner's own at a URL. The URL is kept in localStorage (it fills the
 * form again after going back to the built-in server); the bearer token
 * only in sessionStorage (this tab, until it closes) unless the learner
 * ticks "remember", then in localStorage too. The page reloads to switch,
 * so every part of it (journal, follower, wire log) belongs to one server.
 */
import { parseServerUrl } from './server-discovery.ts';
import type { Preferences } from './server-store.ts';

const URL_KEY = 'mcp-tasks-playground:remote-url';
const ACTIVE_KEY = 'mcp-tasks-playground:remote-active';
const TOKEN_KEY = 'mcp-tasks-playground:remote-token';

export interface RemoteChoice {
  url: URL;
  token: string | undefined;
  /** The token is kept beyond this tab's session. */
  remember: boolean;
}

/** Where the choice is kept: localStorage and sessionStorage in the page, Maps in tests. */
export interface ChoiceStorage {
  local: (Preferences & { removeItem(key: string): void }) | undefined;
  session: (Preferences & { removeItem(key: string): void }) | undefined;
}

/** The page's own storages, when this runtime has ones that work. */
export function browserChoiceStorage(): ChoiceStorage {
  const get = (name: 'localStorage' | 'sessionStorage'): ChoiceStorage['local'] => {
    try {
      return typeof globalThis[name] === 'undefined' ? undefined : globalThis[name];
    } catch {
      return undefined; // A locked-down profile throws on access.
    }
  };
  return { local: get('localStorage'), session: get('sessionStorage') };
}

function read(storage: ChoiceStorage['local'], key: string): string | undefined {
  try {
    return storage?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(storage: ChoiceStorage['local'], key: string, value: string | undefined): void {
  try {
    if (value === undefined) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage refused: the choice holds until the page closes.
  }
}

/** The last URL entered, for the form (whichever server is in use). */
export function lastServerUrl(storage: ChoiceStorage): string {
  return read(storage.local, URL_KEY) ?? '';
}

/** Whether a token is remembered beyond this tab. */
export function tokenRemembered(storage: ChoiceStorage): boolean {
  return read(storage.local, TOKEN_KEY) !== undefined;
}

/** The learner's own server, when the page is to talk to it; undefined for the built-in one. */
export function readRemoteChoice(storage: ChoiceStorage): RemoteChoice | undefined {
  if (read(storage.local, ACTIVE_KEY) !== '1') return undefined;
  const parsed = parseServerUrl(read(storage.local, URL_KEY) ?? '');
  if (!('url' in parsed)) return undefined;
  const remembered = read(storage.local, TOKEN_KEY);
  const token = read(storage.session, TOKEN_KEY) ?? remembered;
  return { url: parsed.url, token: token || undefined, remember: remembered !== undefined };
}

/** Keeps the choice of the learner's server; the caller reloads the page. */
export function saveRemoteChoice(storage: ChoiceStorage, choice: RemoteChoice): void {
  write(storage.local, URL_KEY, choice.url.href);
  write(storage.local, ACTIVE_KEY, '1');
  write(storage.session, TOKEN_KEY, choice.token);
  write(storage.local, TOKEN_KEY, choice.remember ? choice.token : undefined);
}

/** Back to the built-in server: the URL stays for the form, a token not remembered goes. */
export function chooseBuiltInServer(storage: ChoiceStorage): void {
  write(storage.local, ACTIVE_KEY, undefined);
  write(storage.session, TOKEN_KEY, undefined);
}
