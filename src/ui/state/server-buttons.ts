/**
 * The header's Drop / Kill / Restart words. The header has one row at
 * 1440 px only if these buttons show a short word ("Kill"), so each one's
 * accessible name is the full one ("Kill server"), which contains the word
 * shown (WCAG 2.5.3, label in name), and its tooltip says what it does.
 * With one node Kill and Restart act on "the server"; on a cluster they
 * stop or restart every node at once, which a newcomer who thinks of "the
 * server" would not guess, so their words say "all" and the tooltip says
 * how many, and where to act on one node instead.
 */

/** One button's words. */
export interface ButtonWords {
  /** What it shows: one or two short words. */
  short: string;
  /** Its accessible name, which contains `short`. */
  name: string;
  /** Its tooltip: the name, then what it does. */
  title: string;
}

export interface ServerButtonWords {
  drop: ButtonWords;
  kill: ButtonWords;
  restart: ButtonWords;
}

const drop: ButtonWords = {
  short: 'Drop',
  name: 'Drop connection',
  title:
    "Drop connection: breaks the page's link to the server; the client reconnects and re-issues what was in flight.",
};

/** `nodes`: how many cluster nodes run behind the page's balancer (1: the single server). */
export function serverButtonWords(nodes: number): ServerButtonWords {
  if (nodes <= 1)
    return {
      drop,
      kill: {
        short: 'Kill',
        name: 'Kill server',
        title: 'Kill server: stops the server worker at once, as a crash would: every link breaks.',
      },
      restart: {
        short: 'Restart',
        name: 'Restart server',
        title: 'Restart server: starts a fresh server worker: a memory store starts empty.',
      },
    };
  const one = 'To act on one node only, use the buttons beside it in the Cluster panel.';
  return {
    drop,
    kill: {
      short: 'Kill all',
      name: 'Kill all nodes',
      title: `Kill all nodes: kills every one of the ${nodes} cluster nodes at once, as a power cut would: the whole cluster stops. ${one}`,
    },
    restart: {
      short: 'Restart all',
      name: 'Restart all nodes',
      title: `Restart all nodes: restarts every one of the ${nodes} cluster nodes. ${one}`,
    },
  };
}
