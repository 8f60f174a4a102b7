import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports outside the system's ephemeral range: no outgoing connection and no listen(0) is given
 * one of these, so a port found free stays free for the test that chose it, across its server's
 * restart too (a SIGKILLed bridge restarted on its fixed address once found its port taken by
 * another test's connection, which had been given it in between).
 */
const [EPHEMERAL_LOW, EPHEMERAL_HIGH] = (() => {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: its usual range
  }
  return [32_768, 60_999];
})();
const [CHOOSE_FROM, CHOOSE_TO] = EPHEMERAL_LOW > 12_000 ? [10_000, EPHEMERAL_LOW - 1] : [EPHEMERAL_HIGH + 1, 65_535];

/** A loopback port nothing listens on now: for a server this test starts on it later. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = CHOOSE_FROM + Math.floor(Math.random() * (CHOOSE_TO - CHOOSE_FROM + 1));
    if (await listenable(port)) return port;
  }
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port that refuses every connection, for a peer that is never there. Not one
 * freePort() found: the system may give that port to another test's server a moment later
 * (listen(0)), which would then answer. Port 2 is never given so, nothing here listens on it,
 * and fetch does not refuse it beforehand as a "bad port" (as it does 1).
 */
export const REFUSING_PORT = 2;
