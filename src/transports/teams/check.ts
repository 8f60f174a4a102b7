import { fail, firstLine, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { appToken, teamsLogin } from './auth.ts';
import { MESSAGES_PATH } from './endpoint.ts';
import { requireTeams, settingProblems, type TeamsSettings } from './settings.ts';

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
