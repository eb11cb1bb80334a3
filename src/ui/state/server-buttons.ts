/**
 * The header's Kill / Restart words. With one node they act on "the
 * server"; on a cluster they stop or restart every node at once, which a
 * newcomer who thinks of "the server" would not guess, so the buttons say
 * "all nodes" (short: the header is full at 1440 px) and their title says
 * how many, and where to act on one node instead.
 */

export interface ServerButtonWords {
  kill: string;
  restart: string;
  /** The buttons' title: what they do, in a sentence. */
  killTitle: string;
  restartTitle: string;
}

/** `nodes`: how many cluster nodes run behind the page's balancer (1: the single server). */
export function serverButtonWords(nodes: number): ServerButtonWords {
  if (nodes <= 1)
    return {
      kill: 'Kill server',
      restart: 'Restart server',
      killTitle: 'Stops the server worker at once, as a crash would: every link breaks.',
      restartTitle: 'Starts a fresh server worker: a memory store starts empty.',
    };
  const one = 'To act on one node only, use the buttons beside it in the Cluster panel.';
  return {
    kill: 'Kill all nodes',
    restart: 'Restart all nodes',
    killTitle: `Kills every one of the ${nodes} cluster nodes at once, as a power cut would: the whole cluster stops. ${one}`,
    restartTitle: `Restarts every one of the ${nodes} cluster nodes. ${one}`,
  };
}
