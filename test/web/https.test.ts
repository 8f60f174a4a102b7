import { request } from 'node:https';
import { readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../support/certificate.ts';
import { freePort } from '../support/free-port.ts';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Over HTTPS (BRIDGE_WEB_TLS_*), /dashboard also opens the Mini App; a login sets no cookie there either.
let world: TelegramWorld;
let tls: { dir: string; cert: string; key: string };
let port: number;
const me = ownerIn(() => world, OWNER);

beforeAll(async () => {
  tls = await selfSignedCertificate();
  port = await freePort();
  world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, BRIDGE_WEB_TLS_CERT: tls.cert, BRIDGE_WEB_TLS_KEY: tls.key });
}, 60_000);
afterAll(async () => {
  await world?.stop();
  await rm(tls.dir, { recursive: true, force: true });
});

/** A POST over HTTPS trusting only the test's certificate. */
async function post(path: string, body: unknown): Promise<{ status: number; cookies: string[]; body: string }> {
  const ca = await readFile(tls.cert);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', ca, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, cookies: res.headers['set-cookie'] ?? [], body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('the dashboard over HTTPS', () => {
  it('offers the Mini App and a login link, which answers a bearer and sets no session cookie', async () => {
    me.say('/dashboard');
    const reply = await me.waitText(/The link works once/);
    const buttons = reply.buttons as { text: string; web_app?: { url: string } }[];
    expect(buttons).toEqual([{ text: '📊 Open the dashboard', web_app: { url: `https://127.0.0.1:${port}/app` } }]);
    const token = /\/login#(\S+)/.exec(reply.text ?? '')![1]!;
    const login = await post('/api/auth/link', { token });
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body)).toMatchObject({ bearer: expect.stringMatching(/^[\w-]{32}$/) });
    // Only the clearing of an older bridge's cookie.
    expect(login.cookies).toEqual(['jb_session=; Max-Age=0; Path=/']);
  });
});
