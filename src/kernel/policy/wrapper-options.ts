/**
 * The options of programs that run another program (`env`, `sudo`, `timeout` …) and of git
 * before its subcommand: which take a value, which do not. An option not listed here makes
 * the reader try every word after it as the program, so a missing entry only widens a match.
 */
export interface OptionTable {
  /** Options followed by a value: short letters (`u`) and long names (`user`). */
  withValue: string;
  withValueLong?: readonly string[];
  /** Options taking no value (a long one may still be written `--name=value`). */
  flags: string;
  flagsLong?: readonly string[];
  /** Words after the options and before the program: `timeout`'s duration. */
  operands?: number;
  /** `NAME=value` words may come before the program (`env`, `sudo`). */
  assignments?: boolean;
  /** `-10` is an option (`nice`). */
  numeric?: boolean;
}

/** Programs that run the rest of their words as a command, after their own options. */
export const WRAPPERS: Readonly<Record<string, OptionTable>> = {
  env: {
    withValue: 'uCSa',
    withValueLong: ['unset', 'chdir', 'split-string', 'argv0'],
    flags: 'i0v',
    flagsLong: ['ignore-environment', 'null', 'debug', 'block-signal', 'default-signal', 'ignore-signal', 'list-signal-handling'],
    assignments: true,
  },
  command: { withValue: '', flags: 'pvV' },
  builtin: { withValue: '', flags: '' },
  exec: { withValue: 'a', flags: 'cl' },
  nice: { withValue: 'n', withValueLong: ['adjustment'], flags: '', numeric: true },
  nohup: { withValue: '', flags: '' },
  setsid: { withValue: '', flags: 'cfw', flagsLong: ['ctty', 'fork', 'wait'] },
  stdbuf: { withValue: 'ioe', withValueLong: ['input', 'output', 'error'], flags: '' },
  ionice: { withValue: 'cnp', withValueLong: ['class', 'classdata', 'pid'], flags: 'tu', flagsLong: ['ignore'] },
  timeout: {
    withValue: 'sk',
    withValueLong: ['signal', 'kill-after'],
    flags: 'v',
    flagsLong: ['preserve-status', 'foreground', 'verbose'],
    operands: 1,
  },
  time: { withValue: 'fo', withValueLong: ['format', 'output'], flags: 'pvaq', flagsLong: ['portability', 'verbose', 'append', 'quiet'] },
  xargs: {
    withValue: 'adEIJLnPRs',
    withValueLong: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    flags: '0oprtxeil',
    flagsLong: ['null', 'open-tty', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'show-limits'],
  },
  sudo: {
    withValue: 'CDghprtTUu',
    withValueLong: ['close-from', 'chdir', 'group', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'user'],
    flags: 'AbEeHiKklnPSsVv',
    flagsLong: [
      'askpass',
      'background',
      'preserve-env',
      'edit',
      'set-home',
      'login',
      'remove-timestamp',
      'reset-timestamp',
      'list',
      'non-interactive',
      'preserve-groups',
      'stdin',
      'shell',
      'version',
      'validate',
    ],
    assignments: true,
  },
  doas: { withValue: 'uC', flags: 'nsL' },
  chroot: { withValue: '', flags: '', withValueLong: ['userspec', 'groups'], flagsLong: ['skip-chdir'], operands: 1 },
  busybox: { withValue: '', flags: '' },
  noglob: { withValue: '', flags: '' },
  nocorrect: { withValue: '', flags: '' },
};

/** git's options before its subcommand. */
export const GIT_OPTIONS: OptionTable = {
  withValue: 'Cc',
  withValueLong: ['git-dir', 'work-tree', 'namespace', 'super-prefix', 'config-env', 'list-cmds', 'attr-source'],
  flags: 'pPvh',
  flagsLong: [
    'paginate',
    'no-pager',
    'bare',
    'exec-path',
    'no-replace-objects',
    'no-lazy-fetch',
    'no-optional-locks',
    'no-advice',
    'literal-pathspecs',
    'glob-pathspecs',
    'noglob-pathspecs',
    'icase-pathspecs',
    'html-path',
    'man-path',
    'info-path',
    'version',
    'help',
  ],
};

/** Shells: `-c` makes their first word a line to run; with no word and no `-c` they run what comes in. */
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'rbash']);

/** Shell options followed by a value (`-o pipefail`, `--rcfile f`). */
export const SHELL_VALUE_LETTERS = 'oO';
export const SHELL_VALUE_LONG = new Set(['--rcfile', '--init-file', '--emulate', '--init-command']);

/**
 * Programs that run a command built from their words in ways not modelled here (a tracer, a
 * sandbox, a lock): every word after their name is tried as the program, and every word that
 * reads as a line is read as one.
 */
export const RUNS_SOMEWHERE_IN_ITS_WORDS = new Set([
  'strace',
  'ltrace',
  'valgrind',
  'unshare',
  'nsenter',
  'chrt',
  'taskset',
  'fakeroot',
  'firejail',
  'flock',
  'unbuffer',
  'torsocks',
  'proxychains',
  'proxychains4',
  'systemd-run',
  'run-one',
  'chronic',
  'pkexec',
  'su',
  'runuser',
  'script',
  'watch',
  'parallel',
  'bwrap',
  'catchsegv',
  'caffeinate',
  'retry',
]);

/** Programs whose effect the bridge cannot read from their words: every rule of their tool binds them. */
export const UNREADABLE_PROGRAMS = new Set(['eval', 'source', '.', 'fc']);

/** Builtins some of whose words are lines run later: `trap 'git push' EXIT`, `alias p='git push'`. */
export const LINES_IN_WORDS = new Set(['trap', 'alias']);
