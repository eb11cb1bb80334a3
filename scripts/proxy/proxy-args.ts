/**
 * `npm run proxy -- <url> [--port N] [--host H] [--origin O]...` read into
 * options, or the words saying what is wrong with them (the CLI prints them
 * and exits 2). Pure, so the bad inputs are tested without a process.
 */
import { parseArgs } from 'node:util';
// The page names the same port when it shows the command for a server CORS blocks.
import { DEFAULT_PROXY_PORT } from '../../src/session/server-discovery.ts';

export const PROXY_USAGE = `Usage: npm run proxy -- <url> [--port N] [--host H] [--origin O]

Forwards to the MCP server at <url> (http or https) and adds the CORS
headers a browser page needs, every MCP header and body byte left as
they were. Connect the page to the address it prints.

  --port N     the proxy's port, 0 for any free one (default ${DEFAULT_PROXY_PORT})
  --host H     the address it listens on (default 127.0.0.1)
  --origin O   a page origin to allow besides this machine's (repeatable),
               e.g. https://playground.example
  -h, --help   show this help
`;

export interface ProxyArgs {
  target: URL;
  port: number;
  host: string;
  origins: string[];
}

export type ParsedProxyArgs = { args: ProxyArgs } | { help: true } | { error: string };

export function parseProxyArgs(argv: readonly string[]): ParsedProxyArgs {
  let parsed: ReturnType<typeof read>;
  try {
    parsed = read(argv);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1)
    return {
      error:
        positionals.length === 0
          ? 'give the URL of the MCP server to forward to, e.g. npm run proxy -- https://mcp.example.com/mcp'
          : `give one URL, not ${positionals.length} (${positionals.join(' ')})`,
    };
  const raw = positionals[0]!;
  let target: URL;
  try {
    target = new URL(raw);
  } catch {
    return { error: `"${raw}" is not a URL: write it whole, e.g. https://mcp.example.com/mcp` };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return {
      error: `${target.protocol} is not http or https: a Streamable HTTP server is reached at an http:// or https:// URL`,
    };
  const port = Number(values.port ?? DEFAULT_PROXY_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `--port ${values.port}: a port is a whole number from 0 to 65535` };
  const origins: string[] = [];
  for (const origin of values.origin ?? []) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return {
        error: `--origin ${origin}: an origin is a scheme and a host, e.g. https://playground.example`,
      };
    }
    if (url.origin !== origin.replace(/\/$/, ''))
      return { error: `--origin ${origin}: an origin has no path, e.g. ${url.origin}` };
    origins.push(url.origin);
  }
  return { args: { target, port, host: values.host ?? '127.0.0.1', origins } };
}

function read(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      origin: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
