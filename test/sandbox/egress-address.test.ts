import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { auditEntries, cannotWall, fetchesIn, type Escape } from './walls-support.ts';

// The model API on the host's loopback (ANTHROPIC_BASE_URL=http://127.0.0.1:A), and beside it
// what the bridge and its machine serve there (its metrics, Redis, a dashboard: port B). The
// agent in its walls, through the real bridge, reaches A's port and nothing else of that
// address, by address or by a name a chat allowed, until the operator names the address.
let world: TelegramWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
const servers: RunningServer[] = [];
afterEach(async () => {
  await world?.stop();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await project?.remove();
  world = project = undefined;
});

const CHAT = -4400;
const { say, waitText: answer } = ownerIn(() => world!, CHAT, 30_000);
const cannot = cannotSwitchUser() ?? cannotWall();

const fetchOnce = fetchesIn(() => world!, CHAT, say);
const blockedInAudit = async () => (await auditEntries(world!.dataDir)).filter((entry) => entry.event === 'blocked').map((entry) => entry.detail);

describe.skipIf(cannot)(`egress by address (${cannot ?? AGENT_USER})`, () => {
  it('reaches the model API’s own port alone on its address, and a loopback name a chat allowed only once the operator names the address', async () => {
    const served: string[] = [];
    const modelApi = await listen((req, res) => res.end(served.push(`model ${req.url}`) && '{"data":[]}'));
    const metrics = await listen((req, res) => res.end(served.push(`metrics ${req.url}`) && 'bridge_turns_total 1'));
    servers.push(modelApi, metrics);
    const modelPort = new URL(modelApi.origin).port;
    const metricsPort = new URL(metrics.origin).port;
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    const plain = [`http://127.0.0.1:${metricsPort}/metrics`, `http://[::ffff:127.0.0.1]:${metricsPort}/metrics`, `http://127.0.0.1:${modelPort}/v1/models`];
    world = await startTelegramWorld({
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_WORKDIR: project.path,
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelPort}`,
      FAKE_ESCAPE_URLS: plain.join(','),
    });
    await giveToAgent(world.cli.dir, ids);

    // Tunnelled (CONNECT) and forwarded (plain HTTP) alike: the model API's port, and no other of its address.
    expect(await fetchOnce(`http://127.0.0.1:${modelPort}/v1/models`)).toBe('fetch: status 200');
    expect(await fetchOnce(`http://127.0.0.1:${metricsPort}/metrics`)).toBe('fetch: refused (status 403)');
    say('escape');
    const seen = JSON.parse(shownText(await answer(/^\{"keys"/)).split('\n')[0]!) as Escape;
    expect(seen.proxied[plain[0]!]).toBe('refused: status 403');
    expect(seen.proxied[plain[1]!]).toBe('refused: status 403');
    expect(seen.proxied[plain[2]!]).toBe('ok: status 200');

    // A chat's /net naming a name that resolves to the loopback opens nothing there.
    say(`/net allow localhost:${metricsPort}`);
    await answer(/may now reach/);
    expect(await fetchOnce(`http://localhost:${metricsPort}/metrics`)).toBe('fetch: refused (status 403)');
    await expect
      .poll(blockedInAudit)
      .toContainEqual(expect.stringMatching(/^localhost: it resolves to an internal address \((127\.0\.0\.1|::1)\), which only the operator opens/));
    expect(served.filter((line) => line.startsWith('metrics'))).toEqual([]);
    // An internal address a chat names is said to be the operator's to open.
    say('/net allow 10.0.0.5:5432');
    await answer(/may now reach 10\.0\.0\.5:5432\. \(10\.0\.0\.5:5432: internal, so reached only where the operator opens it, in BRIDGE_SANDBOX_INTERNAL\.\)/);

    // The operator names the address (on that port): the name the chat allowed reaches it; the address itself, which no list allows, still does not.
    world.env.BRIDGE_SANDBOX_INTERNAL = `127.0.0.1:${metricsPort}`;
    await world.restart();
    expect(await fetchOnce(`http://localhost:${metricsPort}/metrics`)).toBe('fetch: status 200');
    expect(await fetchOnce(`http://127.0.0.1:${metricsPort}/metrics`)).toBe('fetch: refused (status 403)');
    expect(served.filter((line) => line.startsWith('metrics'))).toEqual(['metrics /metrics']);
  });
});
