import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLog } from '../../src/kernel/log/logger.ts';
import { Secrets } from '../../src/kernel/log/secrets.ts';
import { reachTelegram } from '../../src/transports/telegram/reach.ts';
import { REFUSING_PORT } from '../support/free-port.ts';

describe('reachTelegram', () => {
  it('doubles its wait from 1 s to a 60 s cap, a warning per attempt, while nothing answers', async () => {
    const port = REFUSING_PORT;
    const lines: { level: string; msg: string }[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: string; msg: string });
        done();
      },
    });
    const log = createLog({ format: 'json', secrets: new Secrets(), destination });
    const waits: number[] = [];
    const stop = new Error('enough');
    const reached = reachTelegram({ token: '1:x-000000000000000000000000000000000', apiRoot: `http://127.0.0.1:${port}` }, log, async (ms) => {
      waits.push(ms);
      if (waits.length === 9) throw stop;
    });
    await expect(reached).rejects.toBe(stop);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60].map((s) => s * 1000));
    expect(lines).toHaveLength(9);
    expect(lines[0]!.level).toBe('warn');
    expect(lines[0]!.msg).toMatch(new RegExp(`^Telegram \\(127\\.0\\.0\\.1:${port}\\) is unreachable: .*ECONNREFUSED.*; trying again in 1 s \\(attempt 1\\)$`));
  });
});
