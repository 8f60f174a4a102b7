import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLog, type LogFormat } from '../../src/kernel/log/logger.ts';
import { Secrets } from '../../src/kernel/log/secrets.ts';

function capture(format: LogFormat, secrets = new Secrets()) {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { log: createLog({ format, secrets, destination }), text: () => text };
}

const TOKEN = '123456789:AAE-bot-token-from-botfather-000000';

describe('the log', () => {
  it('writes one JSON object a line, with the level by name and the chat and run it is about', () => {
    const { log, text } = capture('json');
    log.child({ chat: '-300' }).info({ run: 'r1' }, 'run #1 started');
    const lines = text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', chat: '-300', run: 'r1', msg: 'run #1 started', time: expect.any(String) });
  });

  it('writes a line a person reads in a terminal, the fields on the same line', () => {
    const { log, text } = capture('pretty');
    log.child({ chat: '-300' }).warn('the refusal failed: 429');
    expect(text()).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] WARN: the refusal failed: 429 \{"chat":"-300"\}\n$/);
  });

  it.each(['json', 'pretty'] as const)('redacts every secret wherever it appears (%s): message, field, error, quoted', (format) => {
    const secrets = new Secrets();
    secrets.add(TOKEN);
    secrets.add('pa"ss\\word-with-quotes');
    const mcp = 'mcp-session-secret-0123456789abcdef';
    secrets.add(mcp);
    const { log, text } = capture(format, secrets);
    log.info(`calling https://api.telegram.org/bot${TOKEN}/getMe`);
    log.warn({ url: `redis://:pa"ss\\word-with-quotes@host:6379` }, 'Redis did not answer');
    log.error({ err: new Error(`failed with ${TOKEN}`) }, 'it failed');
    log.info({ header: `Bearer ${mcp}` }, 'a tool call');
    secrets.remove(mcp);
    log.info(`revoked: ${mcp}`);
    const out = text();
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('ss\\word');
    expect(out).not.toContain('ss\\\\word');
    expect(out.match(/\[redacted\]/g)).toHaveLength(5); // the error's message and its stack
    // A revoked secret is no longer one: the log names it again (it opens nothing).
    expect(out).toContain(`revoked: ${mcp}`);
  });

  it('ignores values too short to be secrets, which would redact ordinary words', () => {
    const secrets = new Secrets();
    secrets.add('on');
    const { log, text } = capture('json', secrets);
    log.info('turn started');
    expect(text()).toContain('turn started');
  });
});

describe('the log beside a conversation in the terminal (the console)', () => {
  it.each(['json', 'pretty'] as const)('keeps everything in the file, and shows the terminal only warnings about the bridge itself (%s)', async (format) => {
    const dir = await mkdtemp(join(tmpdir(), 'log-file-'));
    let shown = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        shown += chunk.toString();
        done();
      },
    });
    const log = createLog({ format, secrets: new Secrets(), destination, file: join(dir, 'bridge.log') });
    log.info('turn started');
    log.warn('claude has no credentials');
    log.warn({ hook: 'deploy' }, 'webhook deploy: 401 bad signature');
    log.child({ chat: 'console:0' }).warn('turn failed');
    log.warn({ login: 'link' }, 'web login refused (link): not in BRIDGE_ALLOWED_USERS');
    const kept = await readFile(join(dir, 'bridge.log'), 'utf8');
    await rm(dir, { recursive: true });
    expect(shown).toContain('claude has no credentials');
    expect(shown).not.toMatch(/webhook|turn failed|turn started|web login/);
    for (const line of ['turn started', 'claude has no credentials', 'webhook deploy: 401 bad signature', 'turn failed', 'web login refused'])
      expect(kept).toContain(line);
  });
});
