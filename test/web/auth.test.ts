import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkInitData } from '../../src/transports/telegram/init-data.ts';
import { signInitData } from '../support/fake-telegram/init-data.ts';
import { LOGIN_LINK_MS, WebLogins } from '../../src/surfaces/web/auth/web-logins.ts';

const TOKEN = '123456:secret-bot-token-000000000000000000';
const now = Date.parse('2026-11-25T12:00:00Z');
const fields = (authDate: number) => ({ auth_date: String(Math.floor(authDate / 1000)), user: JSON.stringify({ id: 42, first_name: 'Ada' }) });

describe("a Mini App's launch data", () => {
  it('is accepted signed with the bot token, within the hour', () => {
    expect(checkInitData(signInitData(fields(now - 60_000), TOKEN), TOKEN, now)).toEqual({ ok: true, user: { id: '42', name: 'Ada' } });
  });

  it('is refused when signed with another key, changed after signing, older than an hour, or unsigned', () => {
    expect(checkInitData(signInitData(fields(now), 'another:token'), TOKEN, now)).toEqual({ ok: false, reason: 'bad signature' });
    const changed = signInitData(fields(now), TOKEN).replace('%22id%22%3A42', '%22id%22%3A1');
    expect(checkInitData(changed, TOKEN, now)).toEqual({ ok: false, reason: 'bad signature' });
    expect(checkInitData(signInitData(fields(now - 3_601_000), TOKEN), TOKEN, now)).toEqual({ ok: false, reason: 'expired' });
    expect(checkInitData(new URLSearchParams(fields(now)).toString(), TOKEN, now)).toEqual({ ok: false, reason: 'no signature' });
  });
});

describe('login links and sessions', () => {
  let dir: string | undefined;
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('a link works once, within ten minutes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-sessions-'));
    const sessions = await WebLogins.open(dir);
    const who = { identity: 'telegram:42', name: 'Ada' };
    const once = sessions.loginLink(who, now);
    expect(sessions.useLink(once, now + 1000)).toEqual(who);
    expect(sessions.useLink(once, now + 2000)).toBeUndefined();
    const late = sessions.loginLink(who, now);
    expect(sessions.useLink(late, now + LOGIN_LINK_MS + 1)).toBeUndefined();
    expect(sessions.useLink('made-up', now)).toBeUndefined();
  });

  it('keeps sessions across a restart by the hash of their secret only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-sessions-'));
    const { secret } = await (await WebLogins.open(dir)).start({ identity: 'telegram:42' });
    expect(await readFile(join(dir, 'web-sessions.json'), 'utf8')).not.toContain(secret);
    const reopened = await WebLogins.open(dir);
    expect(reopened.get(secret)?.identity).toBe('telegram:42');
    await reopened.end(secret);
    expect(reopened.get(secret)).toBeUndefined();
  });

  it('drops, at its start, the sessions an older bridge kept for a cookie: any server on the host may have been sent that cookie', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-sessions-'));
    const kept = await (await WebLogins.open(dir)).start({ identity: 'telegram:42' });
    const file = join(dir, 'web-sessions.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { sessions: Record<string, object> };
    const cookieSecret = 'a-cookie-any-port-of-the-host-was-sent';
    data.sessions[createHash('sha256').update(cookieSecret).digest('hex')] = { identity: 'telegram:42', csrf: 'its-token', expiresAt: Date.now() + 60_000 };
    await writeFile(file, JSON.stringify(data));
    const reopened = await WebLogins.open(dir);
    expect(reopened.get(cookieSecret)).toBeUndefined();
    expect(reopened.get(kept.secret)?.identity).toBe('telegram:42');
    expect(await readFile(file, 'utf8')).not.toContain('its-token');
  });
});
