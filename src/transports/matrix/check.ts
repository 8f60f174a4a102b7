import { fail, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { unreachable } from '../serving/reach.ts';
import { refusal, whoAmI } from './reach.ts';
import { requireMatrix, settingsProblems, TOKEN_HOW, type MatrixSettings } from './settings.ts';

/** The settings, and the token asked of the homeserver once (`GET /account/whoami`). */
export async function checkMatrix(settings: MatrixSettings): Promise<CheckResult[]> {
  const [problem] = settingsProblems(settings);
  if (problem) return [fail('Matrix', problem, `Set MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN: ${TOKEN_HOW}.`)];
  const ready = requireMatrix(settings);
  try {
    const me = await whoAmI(ready);
    return [pass('Matrix token', `${me.userId}${me.displayName ? ` (${me.displayName})` : ''}`)];
  } catch (error) {
    const refused = refusal(error);
    if (refused) return [fail('Matrix token', refused, 'Log the bot in again and copy its new access token.')];
    return [unreachable('Matrix token', `the homeserver (${new URL(ready.homeserverUrl).host})`, error, 'MATRIX_HOMESERVER_URL')];
  }
}
