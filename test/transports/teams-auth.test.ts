import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeWorld, type BridgeWorld } from '../support/bridge-world.ts';
import { FakeTeams, type TeamsPerson } from '../support/fake-teams/index.ts';
import { freePort } from '../support/free-port.ts';

// What the Teams endpoint refuses: an activity whose token the Bot Framework did not sign for
// this app, and one of another tenant; through the real SDK, with the bridge as a process.
let teams: FakeTeams;
let world: BridgeWorld;
let ada: TeamsPerson;
const personal = () => `a:${ada.aadObjectId}`;

/** A message from Ada in her personal chat, of `tenant`. */
function message(text: string, tenant = teams.tenantId): Record<string, unknown> {
  return {
    type: 'message',
    id: teams.newId(),
    from: { id: ada.id, name: ada.name, aadObjectId: ada.aadObjectId },
    recipient: { id: `28:${teams.appId}`, name: 'Bridge' },
    conversation: { id: personal(), tenantId: tenant, conversationType: 'personal' },
    channelData: { tenant: { id: tenant } },
    text,
  };
}

beforeAll(async () => {
  teams = await FakeTeams.start();
  ada = teams.addPerson('Ada');
  const port = await freePort();
  teams.endpoint = `http://127.0.0.1:${port}`;
  world = await startBridgeWorld({
    env: { ...teams.env(), BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, BRIDGE_ALLOWED_USERS: `teams:${ada.aadObjectId}` },
    ready: async (bridge) => {
      await bridge.waitForLog(/serving /, 30_000);
      await teams.waitFor(async () => (await teams.deliver(message('say:ready')).catch(() => 0)) === 200, 30_000);
    },
    close: () => teams.close(),
  });
}, 60_000);
afterAll(() => world?.stop());

describe('the Teams endpoint', () => {
  const claims = () => ({ aud: teams.appId, serviceurl: teams.serviceUrl });

  it('refuses an activity whose token is missing, forged, for another app, of another issuer, or for another service', async () => {
    const refused = [
      '',
      teams.key.forged(claims()),
      teams.key.token({ ...claims(), aud: randomUUID() }),
      teams.key.token({ ...claims(), iss: 'https://sts.example.com/' }),
      teams.key.token({ ...claims(), serviceurl: 'https://elsewhere.example.com/' }),
      teams.key.token({ ...claims(), exp: Math.floor(Date.now() / 1000) - 3600 }),
    ];
    for (const [i, token] of refused.entries()) expect(await teams.deliver(message(`say:refused-${i}`), token), `token ${i}`).toBe(401);
  });

  it("refuses another tenant's activity, signed or not, and does nothing with it", async () => {
    expect(await teams.deliver(message('say:other-tenant', randomUUID()))).toBe(403);
    expect(await teams.deliver(message('say:after'))).toBe(200);
    await teams.waitFor(() => teams.botMessages(personal()).find((m) => /^after/.test(teams.shown(m).text)));
    const prompts = (await world.cli.invocations()).map((c) => c.prompt);
    expect(prompts.filter((p) => p.startsWith('say:refused') || p === 'say:other-tenant')).toEqual([]);
  });

  it("answers with the app's token: the connector refuses a call without it, or with another", async () => {
    expect(teams.botMessages(personal()).length).toBeGreaterThan(0);
    for (const authorization of [undefined, 'Bearer not-the-apps'])
      expect(await connectorStatus(`v3/conversations/${encodeURIComponent(personal())}/activities`, authorization)).toBe(401);
  });

  it("waits out Teams' 429 for its Retry-After, and the answer arrives", async () => {
    teams.throttle(2);
    const before = teams.throttledCalls;
    expect(await teams.deliver(message('say:after-busy'))).toBe(200);
    await teams.waitFor(() => teams.botMessages(personal()).find((m) => /^after-busy/.test(teams.shown(m).text)), 20_000);
    expect(teams.throttledCalls - before).toBe(2);
  });

  it("refuses a body past the web server's limit", async () => {
    expect(await teams.deliver(message(`say:${'x'.repeat(2 * 1024 * 1024)}`))).toBe(413);
  });
});

/** The status the twin's connector answers a message posted at `path`, trusting its certificate. */
async function connectorStatus(path: string, authorization?: string): Promise<number> {
  const ca = await readFile(teams.certFile);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) };
    const call = request(`${teams.serviceUrl}${path}`, { method: 'POST', ca, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    call.on('error', reject);
    call.end(JSON.stringify({ type: 'message', text: 'not the bot' }));
  });
}
