import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';
import { chooseTransports } from '../../src/kernel/known-transports.ts';

const ids = (argv: string[], env: NodeJS.ProcessEnv) => chooseTransports(argv, env).map((t) => t.id);
const refusal = (argv: string[], env: NodeJS.ProcessEnv) => {
  try {
    chooseTransports(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('chosen, not refused');
};

const ALL = {
  TELEGRAM_BOT_TOKEN: '1:a-000000000000000000000000000000000',
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_APP_TOKEN: 'xapp-1',
  DISCORD_BOT_TOKEN: 'd',
  MATTERMOST_URL: 'https://chat.example.com',
  MATTERMOST_TOKEN: 'm',
  BRIDGE_WEB_ADDR: '127.0.0.1:0',
};

describe('the transports a bridge serves', () => {
  it('are every one whose settings are present, the web chat beside them', () => {
    expect(ids([], ALL)).toEqual(['telegram', 'slack', 'discord', 'mattermost', 'web']);
    expect(ids([], { SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual(['slack']);
  });

  it('are those BRIDGE_TRANSPORTS names, once each, in any case', () => {
    expect(ids([], { ...ALL, BRIDGE_TRANSPORTS: 'Discord, telegram,discord,web' })).toEqual(['discord', 'telegram', 'web']);
  });

  it('are this terminal with --console, and the web chat with BRIDGE_WEB_ADDR, whatever else is set', () => {
    expect(ids(['--console'], { TELEGRAM_BOT_TOKEN: '1:a-000000000000000000000000000000000' })).toEqual(['console']);
    expect(ids(['--console'], ALL)).toEqual(['console', 'web']);
  });

  it('stop the start in one line naming every chat app when none is set', () => {
    const message = refusal([], {});
    expect(message).toBe(
      'no chat app is set: set TELEGRAM_BOT_TOKEN, or SLACK_BOT_TOKEN with SLACK_APP_TOKEN (or SLACK_SIGNING_SECRET), or DISCORD_BOT_TOKEN, or MATTERMOST_URL with MATTERMOST_TOKEN, or TEAMS_APP_ID with TEAMS_APP_PASSWORD and TEAMS_TENANT_ID, or MATRIX_HOMESERVER_URL with MATRIX_ACCESS_TOKEN; or run `npm start -- --console` to use the bridge in this terminal',
    );
    // The web chat alone has nobody to log in to it.
    expect(refusal([], { BRIDGE_WEB_ADDR: '127.0.0.1:0' })).toBe(message);
  });

  it('refuse a BRIDGE_TRANSPORTS that names what is not there, saying what is', () => {
    expect(refusal([], { ...ALL, BRIDGE_TRANSPORTS: 'telegram,rocketchat' })).toBe(
      'BRIDGE_TRANSPORTS: "rocketchat" is not a transport; choose among telegram, slack, discord, mattermost, teams, matrix, web (the terminal is --console)',
    );
    expect(refusal([], { TELEGRAM_BOT_TOKEN: '1:a-000000000000000000000000000000000', BRIDGE_TRANSPORTS: 'telegram,slack' })).toBe(
      'BRIDGE_TRANSPORTS names slack, but SLACK_BOT_TOKEN with SLACK_APP_TOKEN (or SLACK_SIGNING_SECRET) is not set',
    );
    expect(refusal([], { ...ALL, BRIDGE_TRANSPORTS: 'console' })).toMatch(/"console" is not a transport/);
    expect(refusal([], { ...ALL, BRIDGE_TRANSPORTS: 'web' })).toMatch(/served beside a chat app/);
    expect(refusal([], { ...ALL, BRIDGE_TRANSPORTS: 'telegram' })).toMatch(/add web to BRIDGE_TRANSPORTS, or unset BRIDGE_WEB_ADDR/);
  });
});
