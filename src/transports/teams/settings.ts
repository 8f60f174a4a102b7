import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Teams transport's settings: its own variables, read by nothing else. */
export interface TeamsSettings {
  appId?: string;
  appPassword?: string;
  tenantId?: string;
  /** Microsoft Entra's sign-in root, where the app's tokens come from (a test's twin elsewhere). */
  loginUrl: string;
  /** The Bot Framework's OpenID metadata: the keys incoming activities are signed with. */
  openIdUrl: string;
}

export type ReadyTeamsSettings = Required<TeamsSettings>;

const DEFAULT_LOGIN_URL = 'https://login.microsoftonline.com';
const DEFAULT_OPENID_URL = 'https://login.botframework.com/v1/.well-known/openidconfiguration';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function teamsSettings({ env }: Pick<TransportSources, 'env'>): TeamsSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const [appId, appPassword, tenantId] = [value('TEAMS_APP_ID'), value('TEAMS_APP_PASSWORD'), value('TEAMS_TENANT_ID')];
  return {
    appId,
    appPassword,
    tenantId,
    loginUrl: (value('TEAMS_LOGIN_URL') ?? DEFAULT_LOGIN_URL).replace(/\/+$/, ''),
    openIdUrl: value('TEAMS_OPENID_URL') ?? DEFAULT_OPENID_URL,
  };
}

/** Whether the login root is Microsoft's own: MSAL knows its hosts; another (a twin) must be named to it. */
export function isMicrosoftLogin(settings: ReadyTeamsSettings): boolean {
  return settings.loginUrl === DEFAULT_LOGIN_URL;
}

/** What is wrong with the settings as written, said without their values; none: nothing. */
export function settingProblems(settings: TeamsSettings): string[] {
  const problems: string[] = [];
  const where = 'Azure portal → your Azure Bot → Configuration';
  if (!settings.appId) problems.push(`TEAMS_APP_ID is not set: set it to the bot's Microsoft App ID (${where})`);
  else if (!GUID.test(settings.appId))
    problems.push(`TEAMS_APP_ID: expected the bot's Microsoft App ID, a GUID (${where}), got ${settings.appId.length} characters that are not one`);
  if (!settings.appPassword)
    problems.push("TEAMS_APP_PASSWORD is not set: set it to a client secret's value (the app registration's Certificates & secrets → New client secret)");
  if (!settings.tenantId)
    problems.push("TEAMS_TENANT_ID is not set: set it to your Microsoft Entra tenant's ID (the app registration's Overview → Directory (tenant) ID)");
  else if (!GUID.test(settings.tenantId))
    problems.push(`TEAMS_TENANT_ID: expected the Directory (tenant) ID, a GUID, got ${settings.tenantId.length} characters that are not one`);
  for (const [name, url] of [
    ['TEAMS_LOGIN_URL', settings.loginUrl],
    ['TEAMS_OPENID_URL', settings.openIdUrl],
  ] as const) {
    if (!URL.canParse(url) || new URL(url).protocol !== 'https:') problems.push(`${name}: "${url}" is not an https URL`);
  }
  return problems;
}

/** The settings a running bot needs; a ConfigError naming the variable otherwise. */
export function requireTeams(settings: TeamsSettings): ReadyTeamsSettings {
  const [problem] = settingProblems(settings);
  if (problem) throw new ConfigError(problem);
  return settings as ReadyTeamsSettings;
}
