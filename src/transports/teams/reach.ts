import type { ConfidentialClientApplication } from '@azure/msal-node';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { fail, firstLine, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { appToken, teamsLogin } from './auth.ts';
import { MESSAGES_PATH } from './endpoint.ts';
import { requireTeams, settingProblems, type TeamsSettings } from './settings.ts';
import { untilAnswered } from '../serving/reach.ts';

/** Microsoft Entra's answers that say the app's credentials are wrong, not that it is away. */
const REFUSALS = /invalid_client|unauthorized_client|invalid_request|AADSTS7000215|AADSTS700016|AADSTS90002/;

/** What went wrong, in its first line. */
function firstLineOf(error: unknown): string {
  return String((error as Error).message ?? error).split('\n')[0]!;
}

/**
 * The app's token, asked until Microsoft Entra answers (untilAnswered); a TransportRefusedError
 * at once when it refuses the app's credentials.
 */
export async function reachTeams(login: ConfidentialClientApplication, log: Log): Promise<void> {
  await untilAnswered('Microsoft Entra', () => appToken(login), {
    log,
    why: firstLineOf,
    refusal: (error) =>
      REFUSALS.test(String((error as Error).message ?? error)) || REFUSALS.test(String((error as { errorCode?: string }).errorCode))
        ? new TransportRefusedError(
            `Microsoft Entra refused the Teams app's credentials (${firstLineOf(error)}): check TEAMS_APP_ID, TEAMS_APP_PASSWORD (a client secret's value, not its id) and TEAMS_TENANT_ID`,
          )
        : undefined,
  });
}

/** The doctor's Teams lines: the settings, and the app's token asked of Microsoft Entra. */
export async function checkTeams(settings: TeamsSettings): Promise<CheckResult[]> {
  const problems = settingProblems(settings);
  if (problems.length) return problems.map((problem) => fail('Teams', problem, 'Register the bot as docs/teams.md says, and copy its settings.'));
  try {
    await appToken(teamsLogin(requireTeams(settings)));
  } catch (error) {
    return [
      fail(
        'Teams app credentials',
        firstLine(String((error as Error).message ?? error)),
        'Check TEAMS_APP_ID, TEAMS_APP_PASSWORD and TEAMS_TENANT_ID (docs/teams.md).',
      ),
    ];
  }
  return [
    pass('Teams app credentials', 'Microsoft Entra gave the app its token'),
    pass('Teams messages', `the Bot Framework's activities at <BRIDGE_WEB_ADDR>${MESSAGES_PATH}`),
  ];
}
