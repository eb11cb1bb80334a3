/**
 * `npm run proxy -- <url>`: a CORS proxy in front of an MCP server that sends
 * no CORS headers, so the playground page can connect to it (see
 * `proxy/cors-proxy.ts` for what it changes and what it leaves as it was).
 * Bad arguments exit 2 with the reason; Ctrl-C or SIGTERM stops it.
 */
import { startCorsProxy } from './proxy/cors-proxy.ts';
import { PROXY_USAGE, parseProxyArgs } from './proxy/proxy-args.ts';

const parsed = parseProxyArgs(process.argv.slice(2));
if ('help' in parsed) {
  console.log(PROXY_USAGE);
  process.exit(0);
}
if ('error' in parsed) {
  console.error(`proxy: ${parsed.error}\n\n${PROXY_USAGE}`);
  process.exit(2);
}
const { args } = parsed;
try {
  const proxy = await startCorsProxy(args);
  console.log(
    `proxy: forwarding to ${args.target.href}, with CORS for pages served from this machine${args.origins.length ? ` and ${args.origins.join(', ')}` : ''}`,
  );
  console.log(`proxy: listening on ${proxy.url.href}  (connect the page to this address)`);
  const stop = (signal: string): void => {
    console.log(`proxy: ${signal}: stopping`);
    void proxy.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(
    `proxy: could not listen on ${args.host}:${args.port}: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}
