import { describe, expect, it } from 'vitest';
import { environmentSecrets } from '../../src/kernel/log/secrets.ts';
import { childEnv } from '../../src/engine/process/child-env.ts';

// Every chat app's settings are the bridge's own: no CLI gets them, and no log line shows them.
describe("the chat apps' variables", () => {
  const env = {
    TELEGRAM_BOT_TOKEN: '123456:telegram-secret-token-0000000000000',
    SLACK_BOT_TOKEN: 'xoxb-slack-secret-token',
    SLACK_APP_TOKEN: 'xapp-slack-secret-app-token',
    SLACK_SIGNING_SECRET: 'slack-signing-secret-0123',
    DISCORD_BOT_TOKEN: 'discord.secret.token-0123456789',
    MATRIX_ACCESS_TOKEN: 'syt_matrix_secret_token_0123',
    ANTHROPIC_API_KEY: 'sk-ant-for-the-cli',
    PATH: '/usr/bin',
  };

  it('are kept from the environment every CLI runs with', () => {
    expect(Object.keys(childEnv(env)).sort()).toEqual(['ANTHROPIC_API_KEY', 'PATH']);
  });

  it('are secrets redacted wherever the bridge prints', () => {
    expect(environmentSecrets(env)).toEqual(expect.arrayContaining(Object.values(env).filter((value) => /secret/.test(value))));
  });
});
