import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { FAKE_AGENT } from './fake-cli.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Python's pty module as the terminal: the child gets a pseudo-terminal for its standard
 * input, output and error; what the test writes is typed into it, what the child prints comes
 * back. The end of the test's input is Ctrl-D, as typed.
 */
const RELAY = `
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
typing = True
while True:
    ready = select.select([fd] + ([0] if typing else []), [], [])[0]
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            typing = False
            os.write(fd, b'\\x04')
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
`;

export interface TerminalProcess {
  /** Types (or pastes) into the terminal. */
  type(text: string): void;
  /** Ctrl-D, once the console reads the terminal (a Ctrl-D typed before its line editor is on is the terminal's, and lost). */
  end(): void;
  /** All the terminal showed so far, as sent. */
  screen(): string;
  /** The same without colours and carriage returns: the text a person reads. */
  text(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | undefined>;
  kill(): void;
  /** The terminal's (the relay's): the bridge is its child. */
  pid: number;
}

const PASTE_ON = '\x1b[?2004h';

/** `npm start -- --console` (as node runs it) in a terminal of its own. */
export function startConsoleInTerminal(env: Record<string, string>): TerminalProcess {
  let shown = '';
  const child: ResultPromise = execa('python3', ['-c', RELAY, 'node', 'dist/server/main.js', '--console'], {
    cwd: REPO,
    // No walls unless a test is about them (as startBridgeProcess): a root bridge with no agent user would not start.
    env: { BRIDGE_CLAUDE_COMMAND: FAKE_AGENT, BRIDGE_SANDBOX: 'off', ...env },
    reject: false,
    buffer: false,
    stdin: 'pipe',
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  // The console turns bracketed paste on as its line editor takes the terminal: from then on it reads what is typed.
  const reading = async (): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!shown.includes(PASTE_ON) && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  return {
    type: (text) => void child.stdin?.write(text),
    end: () => void reading().then(() => child.stdin?.end()),
    screen: () => shown,
    text: () => readable(shown),
    async waitFor(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(readable(shown))) {
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}; it showed:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    exited: child.then((result) => result.exitCode),
    kill: () => void child.kill('SIGKILL'),
    pid: child.pid!,
  };
}

/** Without SGR colour sequences and carriage returns. */
function readable(shown: string): string {
  // eslint-disable-next-line no-control-regex -- the escape is what is removed
  return shown.replace(/\x1b\[[0-9;]*m/g, '').replaceAll('\r', '');
}
