import { afterEach, describe, expect, it } from 'vitest';
import { alive, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { tempDir } from '../support/bridge-process.ts';
import { processesMarkedWith, processesUnder } from '../support/process-tree.ts';
import { startConsoleInTerminal, type TerminalProcess } from '../support/terminal.ts';

// Leaving the console with Ctrl-C, as a newcomer does: it says at once what it waits for, and
// a second Ctrl-C leaves with nothing of the bridge left running.
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const CTRL_C = '\x03';

interface ConsoleWorld {
  cli: FakeCliWorld;
  dataDir: string;
  terminal: TerminalProcess;
  /** Another console on the same data and work directories. */
  again: () => Promise<TerminalProcess>;
}

async function consoleWorld(extra: Record<string, string> = {}): Promise<ConsoleWorld> {
  const [cli, data, work] = await Promise.all([fakeCliWorld(), tempDir('leaving-data-'), tempDir('leaving-work-')]);
  cleanups.push(
    () => cli.cleanup(),
    () => data.remove(),
    () => work.remove(),
  );
  const env = Object.fromEntries(Object.entries(cli.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const start = async () => {
    const terminal = startConsoleInTerminal({ ...env, BRIDGE_DATA_DIR: data.path, BRIDGE_WORKDIR: work.path, TELEGRAM_BOT_TOKEN: '', ...extra });
    cleanups.push(async () => {
      terminal.end();
      const gone = await Promise.race([terminal.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
      if (!gone) terminal.kill();
    });
    await terminal.waitFor(/Type a message, or \/help/);
    return terminal;
  };
  return { cli, dataDir: data.path, terminal: await start(), again: start };
}

/** The bridge under the terminal's relay (python's pty child): its pid. */
function bridgePid(terminal: TerminalProcess, relay: number): number {
  const bridge = processesUnder(relay).find((row) => /dist\/server\/main\.js --console/.test(row.args));
  if (!bridge) throw new Error(`no bridge under the terminal; it showed:\n${terminal.text()}`);
  return bridge.pid;
}

describe('Ctrl-C in the console', () => {
  it('with nothing running, leaves at once, saying nothing', async () => {
    const { terminal, dataDir } = await consoleWorld();
    const before = terminal.text();
    const pressedAt = Date.now();
    terminal.type(CTRL_C);
    expect(await terminal.exited).toBe(0);
    // At once: well under the drain's 60 s, on a loaded machine too.
    expect(Date.now() - pressedAt).toBeLessThan(15_000);
    // Nothing but the ^C readline echoes (and a warning the start printed meanwhile, if any: on the
    // ^C's own line when it came after it).
    const after = terminal
      .text()
      .slice(before.length)
      .replaceAll('\x1b[?2004h', '') // bracketed paste on and off
      .replaceAll('\x1b[?2004l', '')
      .replace(/\[[^\]\n]+\] WARN: [^\n]*/g, '');
    expect(after.trim()).toMatch(/^(\^C)?$/);
    expect(processesMarkedWith(dataDir)).toEqual([]);
  });

  it('with a turn and a run at work, says at once what it waits for and how long; again, leaves with no process of the bridge left', async () => {
    const { terminal, dataDir, cli, again } = await consoleWorld({ BRIDGE_DRAIN_SECONDS: '60' });
    // A run whose CLI ignores SIGTERM, and a turn whose CLI leaves a grandchild in its group.
    terminal.type('/spawn "ignore-term hang"\r');
    await expect.poll(() => cli.hanging().then((pids) => pids.length), { timeout: 30_000 }).toBe(1);
    terminal.type('grandchild hang\r');
    await expect.poll(() => cli.hanging().then((pids) => pids.length), { timeout: 30_000 }).toBe(2);
    const started = processesMarkedWith(dataDir);
    expect(started.some((row) => row.args === 'sleep 600')).toBe(true);

    terminal.type(CTRL_C);
    const firstAt = Date.now();
    await terminal.waitFor(
      /Leaving: waiting up to 60 s for your turn and 1 run to finish, or they go on at the next start\. Ctrl-C again to leave now\.\n/,
      5000,
    );
    expect(Date.now() - firstAt).toBeLessThan(5000);
    // Someone quitting is not told the bridge restarts.
    await terminal.waitFor(/⏸ The bridge is stopping: this turn has 1:00 to finish, or it goes on when the bridge next starts\./);
    expect(terminal.text()).not.toMatch(/restart/i);

    // A second Ctrl-C is a new one once the first's could no longer be echoed by a shell (1 s).
    await expect.poll(() => Date.now() - firstAt, { interval: 100, timeout: 5000 }).toBeGreaterThan(1100);
    const tree = processesUnder(bridgePid(terminal, terminal.pid));
    expect(tree.length).toBeGreaterThanOrEqual(3); // the two CLIs and the grandchild, in their walls or not
    terminal.type(CTRL_C);
    expect(await terminal.exited).toBe(130);
    // Once the bridge has exited, nothing it started is left: not its tree, not anything with its data directory's mark.
    expect(tree.filter((row) => alive(row.pid))).toEqual([]);
    expect(processesMarkedWith(dataDir)).toEqual([]);
    expect(terminal.text()).toMatch(/\nLeaving now: what was running goes on at the next start\.\n/);

    // Ending the processes did not end the turn: the next start takes it up.
    const next = await again();
    await next.waitFor(/↻ Resuming after the restart: “grandchild hang”/, 30_000);
  });
});
