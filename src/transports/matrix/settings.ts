import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Matrix transport's settings: its own variables, read by nothing else. */
export interface MatrixSettings {
  /** The homeserver's client API address, without a trailing slash (`https://matrix.example.org`). */
  homeserverUrl?: string;
  /** The bot account's access token. */
  accessToken?: string;
}

export type ReadyMatrixSettings = Required<MatrixSettings>;

export const TOKEN_HOW =
  'make an account for the bot on your homeserver, log in as it once (Element: Settings → Help & About → Access Token, or POST /_matrix/client/v3/login) and copy its access token into MATRIX_ACCESS_TOKEN';

export function matrixSettings({ env }: Pick<TransportSources, 'env'>): MatrixSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const homeserverUrl = value('MATRIX_HOMESERVER_URL')?.replace(/\/+$/, '');
  const accessToken = value('MATRIX_ACCESS_TOKEN');
  return { homeserverUrl, accessToken };
}

/** What is wrong with the settings as written, said without the token's value; none: nothing. */
export function settingsProblems(settings: MatrixSettings): string[] {
  const problems: string[] = [];
  if (!settings.homeserverUrl) problems.push("MATRIX_HOMESERVER_URL is not set: set it to your homeserver's address, like https://matrix.example.org");
  else if (!/^https?:\/\/[^/\s]+/.test(settings.homeserverUrl))
    problems.push(`MATRIX_HOMESERVER_URL: expected the homeserver's address, like https://matrix.example.org, got "${settings.homeserverUrl}"`);
  if (!settings.accessToken) problems.push(`MATRIX_ACCESS_TOKEN is not set: ${TOKEN_HOW}`);
  else if (/\s/.test(settings.accessToken) || settings.accessToken.length < 16)
    problems.push(`MATRIX_ACCESS_TOKEN: expected the bot's access token, got ${settings.accessToken.length} characters that are not one`);
  return problems;
}

/** The settings a running bot needs; a ConfigError naming the variable otherwise. */
export function requireMatrix(settings: MatrixSettings): ReadyMatrixSettings {
  const [problem] = settingsProblems(settings);
  if (problem) throw new ConfigError(problem);
  return settings as ReadyMatrixSettings;
}
