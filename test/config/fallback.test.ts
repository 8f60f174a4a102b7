import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';

const fallback = async (value: string) =>
  (await loadConfig({ env: { BRIDGE_FALLBACK: value, BRIDGE_DATA_DIR: '/tmp/fallback-config-test', BRIDGE_SANDBOX: 'off' } })).fallback;

describe('BRIDGE_FALLBACK', () => {
  it('is a chain of known CLIs, each once', async () => {
    expect(await fallback('claude>codex>droid')).toEqual(['claude', 'codex', 'droid']);
    expect(await fallback(' Codex > claude ')).toEqual(['codex', 'claude']);
    expect(await fallback('')).toBeUndefined();
    expect(await fallback('off')).toBeUndefined();
  });

  it('refuses an unknown CLI, a repeat, a gap or a chain of one, saying which', async () => {
    await expect(fallback('claude>cobol')).rejects.toThrow(
      new ConfigError('BRIDGE_FALLBACK: unknown CLI "cobol"; known: claude, codex, copilot, droid, gemini, opencode, qwen'),
    );
    await expect(fallback('claude>codex>claude')).rejects.toThrow(
      new ConfigError('BRIDGE_FALLBACK: claude is named twice in "claude>codex>claude": each CLI once'),
    );
    await expect(fallback('claude>>codex')).rejects.toThrow(
      new ConfigError('BRIDGE_FALLBACK: "claude>>codex" is not a chain of CLIs: write them between >, as claude>codex>droid'),
    );
    await expect(fallback('claude')).rejects.toThrow(
      new ConfigError('BRIDGE_FALLBACK: "claude" names one CLI: a fallback needs at least two, as claude>codex'),
    );
  });
});
