import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { scrape } from '../support/prometheus.ts';
import { startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Who may read /metrics, over real sockets: the web server (and BRIDGE_METRICS_ADDR) bound on
// every address, reached on the machine's own non-loopback address, so the bridge sees a peer
// that is not 127.0.0.1, as it would another machine's. (The packets never leave this machine;
// what the bridge decides from is the peer address, which is as real as another machine's.)
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** This machine's first IPv4 address that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
const TOKEN = 'a-metrics-token-0123456789';

async function bridgeOnEveryAddress(env: Record<string, string> = {}) {
  const [web, metrics] = [await freePort(), await freePort()];
  world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `0.0.0.0:${web}`, BRIDGE_METRICS_ADDR: `0.0.0.0:${metrics}`, ...env });
  // The listener starts first, the web server with the bridge's other listeners: both are up once both say so.
  await world.bridge.waitForLog(new RegExp(`metrics on http://0\\.0\\.0\\.0:${metrics}/metrics`));
  await world.bridge.waitForLog(new RegExp(`metrics on http://0\\.0\\.0\\.0:${web}/metrics`));
  return { web, metrics };
}

describe.skipIf(!outside)('who may scrape /metrics', () => {
  it('without BRIDGE_METRICS_TOKEN: this machine may; another address is refused with one line saying what to set, and so is a request a proxy forwarded', async () => {
    const { web, metrics } = await bridgeOnEveryAddress();
    expect((await scrape(`http://127.0.0.1:${web}/metrics`)).status).toBe(200);
    const refused = await scrape(`http://${outside}:${web}/metrics`);
    expect(refused).toEqual({
      status: 403,
      type: 'text/plain; charset=utf-8',
      body: 'Metrics are served to this machine only: set BRIDGE_METRICS_TOKEN and send it as a bearer token.\n',
    });
    // A reverse proxy on this machine makes everyone a loopback peer: what it forwards is not this machine's.
    expect((await scrape(`http://127.0.0.1:${web}/metrics`, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
    expect((await scrape(`http://127.0.0.1:${web}/metrics`, { forwarded: 'for=203.0.113.9' })).status).toBe(403);
    // BRIDGE_METRICS_ADDR is opened for metrics alone: without a token, it serves anyone who reaches it.
    const listener = await scrape(`http://${outside}:${metrics}/metrics`);
    expect(listener.status).toBe(200);
    expect(listener.body).toContain('# TYPE jsonl_bridge_approvals_waiting gauge');
    expect((await scrape(`http://${outside}:${metrics}/other`)).status).toBe(404);
  });

  it('with BRIDGE_METRICS_TOKEN: another address must send it as a bearer token, on the web server and BRIDGE_METRICS_ADDR alike', async () => {
    const { web, metrics } = await bridgeOnEveryAddress({ BRIDGE_METRICS_TOKEN: TOKEN });
    await world!.bridge.waitForLog(/metrics on http:\/\/0\.0\.0\.0:\d+\/metrics \(to this machine, and to others with BRIDGE_METRICS_TOKEN\)/);
    for (const port of [web, metrics]) {
      const url = `http://${outside}:${port}/metrics`;
      const missing = await scrape(url);
      expect(missing.status).toBe(401);
      expect(missing.body).toBe('Send BRIDGE_METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).\n');
      expect((await scrape(url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
      expect((await scrape(url, { authorization: `Bearer ${TOKEN.slice(1)}` })).status).toBe(401);
      expect((await scrape(url, { authorization: TOKEN })).status).toBe(401);
      const allowed = await scrape(url, { authorization: `Bearer ${TOKEN}` });
      expect(allowed.status).toBe(200);
      expect(allowed.body).toContain('jsonl_bridge_cli_processes');
      // This machine still needs none.
      expect((await scrape(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    }
    expect(world!.bridge.stderr()).not.toContain(TOKEN);
  });
});
