/**
 * Meeting a remote server: one `server/discover` over a fresh HTTP link
 * before the page's client uses it, so a connect attempt can fail (and the
 * client back off) with a reason the page can show: not http(s), nothing
 * answering, CORS, a 401, HTML, no JSON-RPC, no 2026-07-28. What the server
 * said (name, versions, whether it declares the tasks extension) is kept
 * for the connect panel.
 */
import { z } from 'zod';
import type { HttpTransport, FetchLike } from '../net/http-transport.ts';
import { META, Method, PROTOCOL_VERSION, TASKS_EXTENSION } from '../protocol/constants.ts';
import { clientCapabilities, requestMeta } from '../protocol/envelope.ts';
import { errorMessage } from '../protocol/error-message.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';

/** What `server/discover` said. */
export interface Discovery {
  name: string | undefined;
  version: string | undefined;
  supportedVersions: readonly string[];
  /** Whether its capabilities declare `io.modelcontextprotocol/tasks` (T1). */
  declaresTasks: boolean;
}

/** Why the page cannot use the server now; `cors` and `unreachable` are told apart by a second look. */
export interface RemoteProblem {
  kind: 'cors' | 'unreachable' | 'refused';
  message: string;
  /** With `cors`: the way round it, `npm run proxy` in front of that server. */
  proxy?: ProxyAdvice;
}

/** `npm run proxy` for one server: the command to run and where the page then connects. */
export interface ProxyAdvice {
  /** E.g. `npm run proxy -- https://mcp.example.com/mcp`, the URL quoted for a shell when it must be. */
  command: string;
  /** The proxy's address for that server: its default port, the server's path and query. */
  url: string;
}

/** Where `npm run proxy` listens unless told `--port` (beside serve's 3939 and the cluster's 3940). */
export const DEFAULT_PROXY_PORT = 3941;

/** The command that puts the project's CORS proxy in front of `url`, and the address to connect to then. */
export function proxyAdviceFor(url: URL): ProxyAdvice {
  const safe = /^[\w:/.?=%@+,~-]+$/.test(url.href);
  const quoted = safe ? url.href : `'${url.href.replaceAll("'", `'\\''`)}'`;
  return {
    command: `npm run proxy -- ${quoted}`,
    url: `http://127.0.0.1:${DEFAULT_PROXY_PORT}${url.pathname}${url.search}`,
  };
}

/**
 * The proxy's address in what the learner pasted: the line `npm run proxy` prints
 * (`proxy: listening on http://127.0.0.1:4000/mcp  (connect the page to this address)`), both
 * of its lines, or the bare address. A proxy started with `--port` is then one paste away; the
 * address after "listening on" wins over the target the first line names.
 */
export function proxyAddressIn(text: string): string | undefined {
  const url = /listening on (https?:\/\/\S+)/.exec(text)?.[1] ?? /https?:\/\/\S+/.exec(text)?.[0];
  return url && URL.canParse(url) ? url : undefined;
}

const DiscoverResultSchema = z.looseObject({
  supportedVersions: z.array(z.string()),
  capabilities: z
    .looseObject({ extensions: z.record(z.string(), z.unknown()).optional() })
    .optional(),
  _meta: z
    .looseObject({
      [META.serverInfo]: z.looseObject({ name: z.string(), version: z.string() }).optional(),
    })
    .optional(),
});

const PROBE_ID = 'connect';

/** A URL the page can fetch (http or https), or why the text is not one. */
export function parseServerUrl(raw: string): { url: URL } | { error: string } {
  const text = raw.trim();
  if (!text)
    return { error: 'Enter the URL of your MCP endpoint, e.g. http://127.0.0.1:3939/mcp.' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `"${text}" is not a URL: write it whole, e.g. http://127.0.0.1:3939/mcp.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      error: `${url.protocol} is not http or https: a Streamable HTTP server is reached at an http:// or https:// URL.`,
    };
  return { url };
}

/**
 * Sends `server/discover` over `transport` (started) and reads the answer.
 * Rejects with the reason in words: a JSON-RPC error, an HTTP failure, a
 * broken link (message `unreachable: …`), or a server not speaking 2026-07-28.
 */
export function discover(transport: HttpTransport, clientName: string): Promise<Discovery> {
  return new Promise<Discovery>((resolve, reject) => {
    transport.onmessage = (message) => {
      const parsed = parseMessage(message);
      if (parsed.kind === 'error' && parsed.message.id === PROBE_ID) {
        const { code, message: text } = parsed.message.error;
        reject(
          new Error(
            `server/discover answered ${code} "${text}": the server may speak an older MCP revision; this page speaks ${PROTOCOL_VERSION} only.`,
          ),
        );
      }
      if (parsed.kind === 'result' && parsed.message.id === PROBE_ID) {
        const result = DiscoverResultSchema.safeParse(parsed.message.result);
        if (!result.success)
          return reject(new Error('server/discover answered no supportedVersions.'));
        resolve(discoveryOf(result.data));
      }
    };
    transport.onfailure = (failure) => reject(new Error(failure.message));
    transport.onclose = (reason) => reject(new UnreachableError(reason));
    const meta = requestMeta(
      { name: clientName, version: '0.1.0' },
      clientCapabilities({ tasks: true }),
    );
    void transport.send({
      jsonrpc: '2.0',
      id: PROBE_ID,
      method: Method.discover,
      params: { _meta: meta },
    });
  }).finally(() => {
    transport.onmessage = undefined;
    transport.onfailure = undefined;
    transport.onclose = undefined;
  });
}

function discoveryOf(result: z.infer<typeof DiscoverResultSchema>): Discovery {
  const info = result._meta?.[META.serverInfo];
  const discovery: Discovery = {
    name: info?.name,
    version: info?.version,
    supportedVersions: result.supportedVersions,
    declaresTasks: result.capabilities?.extensions?.[TASKS_EXTENSION] !== undefined,
  };
  if (!discovery.supportedVersions.includes(PROTOCOL_VERSION))
    throw new Error(
      `the server speaks ${discovery.supportedVersions.join(', ') || 'no version'}, not ${PROTOCOL_VERSION}, which this page speaks.`,
    );
  return discovery;
}

/** No HTTP answer came at all. */
export class UnreachableError extends Error {}

/**
 * Why a fetch got no answer. A browser hides a CORS refusal behind the same
 * "Failed to fetch" as a server that is down, so a second, opaque request
 * (`mode: 'no-cors'`, which CORS does not guard) tells them apart: it
 * resolves when something answers at all.
 */
export async function diagnose(
  error: unknown,
  url: URL,
  fetchFn: FetchLike,
  origin: string | undefined,
): Promise<RemoteProblem> {
  if (!(error instanceof UnreachableError))
    return { kind: 'refused', message: errorMessage(error) };
  const reachable = await fetchFn(url, { method: 'POST', mode: 'no-cors', body: '' }).then(
    () => true,
    () => false,
  );
  if (reachable) {
    const proxy = proxyAdviceFor(url);
    return {
      kind: 'cors',
      message: `CORS blocked the call: ${url.host} answered, but the browser would not let this page read the answer, because the server sends no CORS headers for this page's origin${origin ? ` (${origin})` : ''}. Make it answer CORS for this origin (the project's npm run serve does, for pages served from this machine), or put a proxy that adds CORS headers in front of it: run ${proxy.command} in this project, then connect to ${proxy.url}.`,
      proxy,
    };
  }
  return {
    kind: 'unreachable',
    message: `Nothing answers at ${url.href}: the server is down, or the address is wrong (${errorMessage(error)}).`,
  };
}
