import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';
import { tempDir } from '../support/bridge-process.ts';
import { testConfig } from '../support/test-config.ts';

// BRIDGE_SESSION_WORKERS puts chats' sessions on workers, which only a queue reaches.
const configWith = async (env: Record<string, string>) => {
  const dir = await tempDir('session-workers-');
  try {
    return await testConfig({ dataDir: dir.path, workdir: dir.path, env });
  } finally {
    await dir.remove();
  }
};
const QUEUE = { BRIDGE_REDIS_URL: 'redis://127.0.0.1:6379/0', BRIDGE_QUEUE_SECRET: 'a-queue-secret-of-at-least-32-characters' };

describe('BRIDGE_SESSION_WORKERS and BRIDGE_WORKER_LIVE_SESSIONS', () => {
  it('are off and 8 unless set; on needs BRIDGE_REDIS_URL, said by name', async () => {
    expect((await configWith({})).sessionWorkers).toEqual({ on: false, liveSessions: 8 });
    expect((await configWith({ ...QUEUE, BRIDGE_SESSION_WORKERS: 'on', BRIDGE_WORKER_LIVE_SESSIONS: '3' })).sessionWorkers).toEqual({
      on: true,
      liveSessions: 3,
    });
    await expect(configWith({ BRIDGE_SESSION_WORKERS: 'on' })).rejects.toThrow(
      new ConfigError('BRIDGE_SESSION_WORKERS: on needs BRIDGE_REDIS_URL (the Redis the bridge reaches its workers through)'),
    );
    await expect(configWith({ ...QUEUE, BRIDGE_SESSION_WORKERS: 'yes' })).rejects.toThrow(/^BRIDGE_SESSION_WORKERS: expected on or off, got "yes"$/);
    await expect(configWith({ BRIDGE_WORKER_LIVE_SESSIONS: '0' })).rejects.toThrow(/BRIDGE_WORKER_LIVE_SESSIONS/);
  });
});
