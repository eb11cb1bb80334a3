/**
 * The cluster's balancer (`balancer.ts`) as a process of its own, for the
 * bench: there it must not share an event loop with autocannon, which would
 * put the load generator's own work into every request's latency. Under
 * `npm run cluster` the balancer already runs apart from any load, in the
 * cluster's process. Targets come as arguments, `name=origin` each; it prints
 * `balancer listening on <origin>` and stops on SIGTERM or SIGINT.
 */
import { startBalancer, type BalancerTarget } from './balancer.ts';

const targets: BalancerTarget[] = process.argv.slice(2).map((arg) => {
  const at = arg.indexOf('=');
  const origin = arg.slice(at + 1);
  if (at <= 0 || !URL.canParse(origin)) {
    process.stderr.write(`balancer: expected name=http://host:port, not "${arg}"\n`);
    process.exit(2);
  }
  return { name: arg.slice(0, at), origin };
});
if (targets.length === 0) {
  process.stderr.write('balancer: no targets (name=http://host:port …)\n');
  process.exit(2);
}

const balancer = await startBalancer(targets);
console.log(`balancer listening on ${balancer.origin}`);
const stop = (): void => void balancer.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
