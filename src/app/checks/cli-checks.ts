import { basename } from 'node:path';
import { execa } from 'execa';
import which from 'which';
import type { Adapter } from '../../engine/adapters/load.ts';
import { agentUser, asAgent } from '../../engine/process/agent-user.ts';
import { enclose, settingsHome, type Enclosure } from '../../engine/sandbox/walls.ts';
import { type WallScope } from '../../engine/sandbox/wall-scope.ts';
import { fail, firstLine, optional, pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';
import { checkConfigKeys } from './config-keys.ts';

/** A CLI asked about itself may be slow to start (a first run unpacks), never this slow. */
const ASK_TIMEOUT_MS = 30_000;

/**
 * One CLI, asked as the bridge would run it (its environment, its command, as the agent user
 * when there is one, whose home holds its credentials): found, its version, and whether it
 * has credentials, by the adapter's own `doctor` recipe. A CLI that is not installed is no
 * fault when nothing needs it: it is not the default, and no BRIDGE_<NAME>_COMMAND names it
 * (`npm ci` puts droid's platform binary in node_modules, but no `droid` command on the PATH).
 * `inWalls` (the doctor's, with the sandbox on): its version is asked inside the walls, as the
 * bridge would start it there, where a CLI whose installation is not shown is not found.
 */
export async function checkCli(
  adapter: Adapter,
  env: Record<string, string | undefined>,
  defaultCli?: string,
  cancel?: AbortSignal,
  inWalls?: { cwd: string },
): Promise<CheckResult[]> {
  const subject = adapter.name;
  const variable = `BRIDGE_${adapter.name.toUpperCase().replaceAll('-', '_')}_COMMAND`;
  const path = await which(adapter.resolvedCommand, { path: env.PATH ?? '', nothrow: true });
  if (!path && defaultCli !== undefined && !cliNeeded(adapter, defaultCli))
    return [
      optional(
        subject,
        `not installed (${adapter.command} is not on PATH), and optional: ${defaultCli} is the default CLI`,
        `Install it, or set ${variable} to its path, for /cli ${adapter.name} and /spawn --cli ${adapter.name}.`,
      ),
    ];
  if (!path)
    return [
      fail(
        subject,
        `${adapter.resolvedCommand} is not found on PATH`,
        `Install it, or set ${variable} to its path (or remove ${basename(adapter.file)} from adapters/ if no chat should use it).`,
      ),
    ];
  const { doctor } = adapter;
  const walls = inWalls && { cwd: inWalls.cwd, scope: { home: `doctor-${adapter.name}`, cli: adapter.walls } };
  // In walls, the command as the bridge gives it to them: they find what it runs themselves.
  // Its environment as the bridge gives it to the CLI: the manifest's own variables over the bridge's.
  const version = await ask(walls ? adapter.resolvedCommand : path, doctor.version, { ...env, ...adapter.env }, cancel, walls);
  if (!version.ok && walls)
    return [
      fail(
        subject,
        `\`${[adapter.resolvedCommand, ...doctor.version].join(' ')}\` inside the walls ${version.why}`,
        `The walls show what runs (${path}), read-only, with the node_modules or folder it is in and what a script names by absolute path, to the sandbox's user: install it so, where that user may read it, or set ${variable} to the program itself (docs/sandbox.md).`,
      ),
    ];
  if (!version.ok)
    return [fail(subject, `\`${[path, ...doctor.version].join(' ')}\` ${version.why}`, `Check the binary at ${path}, or set ${variable} to a working one.`)];
  const results = [pass(subject, `${firstLine(version.output)} at ${path}${walls ? ', inside the walls' : ''}`)];
  const credentials = await checkCredentials(adapter, path, env, cancel);
  const home = settingsHome();
  const readAsItsUser = async (file: string) => {
    const read = await ask('cat', [file], env, cancel);
    return read.ok ? read.output : undefined;
  };
  const keys = walls && home ? await checkConfigKeys(adapter, env, home, readAsItsUser) : undefined;
  return [...results, credentials, keys].filter((result): result is CheckResult => result !== undefined);
}

/**
 * Whether the CLI at `path` has credentials, by its adapter's `doctor.credentials` recipe (none:
 * it has no recipe). ✗ only on its own word or a recipe that leaves no doubt; a CLI that does not
 * answer, or fails without the words for a missing login, is a warning: it may still work.
 */
export async function checkCredentials(
  adapter: Adapter,
  path: string,
  env: Record<string, string | undefined>,
  cancel?: AbortSignal,
): Promise<CheckResult | undefined> {
  const { credentials } = adapter.doctor;
  if (!credentials) return undefined;
  const subject = `${adapter.name} credentials`;
  const fromEnv = credentials.env.find((name) => env[name]);
  if (fromEnv) return pass(subject, `${fromEnv} is set`);
  const own = credentials.ownProvider && (await ownProvider(credentials.ownProvider, env, cancel));
  if (own) return pass(subject, `${own} names a model provider of its own`);
  if (!credentials.args) return fail(subject, `none of ${credentials.env.join(', ')} is set`, credentials.fix);
  // The path found, not the bare name: a command copied into a plain shell, whose PATH may not have it, runs.
  const shown = `\`${[path, ...credentials.args].join(' ')}\``;
  const answer = await ask(path, credentials.args, { ...env, ...adapter.env }, cancel);
  const missing = credentials.missing === undefined ? undefined : new RegExp(credentials.missing).exec(answer.output)?.[0];
  if (missing) return fail(subject, `${shown} says ${firstLine(missing)}`, credentials.fix);
  if (answer.ok) return pass(subject, `${shown} says it is logged in`);
  // No answer, or a failure that is not the words for a missing login: no word on the credentials.
  if (answer.timedOut || credentials.missing !== undefined) return warn(subject, `${shown} ${answer.why}`, credentials.fix);
  return fail(subject, `${shown}: ${answer.why}`, credentials.fix);
}

/** Whether anything needs this CLI: it is the default, or a BRIDGE_<NAME>_COMMAND names it. */
export function cliNeeded(adapter: Adapter, defaultCli: string): boolean {
  return adapter.name === defaultCli || adapter.resolvedCommand !== adapter.command;
}

/**
 * For the doctor: what is wrong with a CLI nothing needs is said, but as optional, not as a
 * fault (`-- --console` needs the default CLI alone). The start does not ask it (start-checks.ts).
 */
export function optionalUnlessNeeded(adapter: Adapter, defaultCli: string, results: CheckResult[]): CheckResult[] {
  if (cliNeeded(adapter, defaultCli)) return results;
  return results.map((result) =>
    result.ok
      ? result
      : optional(
          result.subject,
          `${result.found.replace(/\.$/, '')}, and optional: ${defaultCli} is the default CLI`,
          `For /cli ${adapter.name} and /spawn --cli ${adapter.name}: ${result.fix ?? ''}`.trim(),
        ),
  );
}

async function ask(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  cancel?: AbortSignal,
  walls?: { cwd: string; scope: WallScope },
): Promise<{ ok: true; output: string; timedOut?: undefined } | { ok: false; why: string; output: string; timedOut: boolean }> {
  const user = agentUser();
  const cwd = walls?.cwd ?? user?.home;
  const agent = asAgent(env, cwd ?? process.cwd());
  let enclosure: Enclosure | undefined;
  try {
    enclosure = walls ? enclose({ command, args, cwd: walls.cwd, env: agent.env }, walls.scope) : undefined;
  } catch (error) {
    return { ok: false, why: `could not be put up: ${firstLine((error as Error).message)}`, output: '', timedOut: false };
  }
  try {
    const result = await execa(enclosure?.command ?? command, enclosure?.args ?? args, {
      ...agent,
      ...(enclosure ? { env: enclosure.env, uid: enclosure.uid, gid: enclosure.gid } : {}),
      ...(cwd ? { cwd } : {}),
      extendEnv: false,
      reject: false,
      timeout: ASK_TIMEOUT_MS,
      stdin: 'ignore',
      all: true,
      ...(cancel ? { cancelSignal: cancel } : {}),
    });
    const output = result.all ?? '';
    if (result.timedOut || result.isCanceled) return { ok: false, why: `did not answer within ${ASK_TIMEOUT_MS / 1000} s`, output, timedOut: true };
    if (result.exitCode !== 0)
      return {
        ok: false,
        why: `failed (${result.exitCode ?? result.signal})${output.trim() ? `: ${firstLine(lastMeaningful(output))}` : ''}`,
        output,
        timedOut: false,
      };
    return { ok: true, output: result.stdout ?? '' };
  } finally {
    enclosure?.close();
  }
}

/**
 * The CLI's own configuration file (the first of `files` whose variables are set, read as the
 * CLI's user would) when a line of it matches `pattern`: its shown path, else undefined.
 */
async function ownProvider(
  { files, pattern }: { files: string[]; pattern: string },
  env: Record<string, string | undefined>,
  cancel?: AbortSignal,
): Promise<string | undefined> {
  const home = agentUser()?.home ?? env.HOME;
  const paths = files.map((file) => file.replace(/^~(?=\/)/, home ? home : '~').replace(/\$(\w+)/g, (_all, name: string) => env[name] ?? '\0'));
  const path = paths.find((candidate) => !candidate.includes('\0') && !candidate.startsWith('~'));
  if (!path) return undefined;
  const read = await ask('cat', [path], env, cancel);
  return read.ok && new RegExp(pattern, 'm').test(read.output) ? path : undefined;
}

/** CLIs print warnings before the line that says what is wrong: the last non-empty line says it. */
function lastMeaningful(output: string): string {
  return output.trim().split('\n').filter(Boolean).at(-1) ?? '';
}
