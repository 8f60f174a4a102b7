import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandFallsUnder } from '../../src/kernel/policy/shell-rule.ts';

// A Bash rule of the tool policy (`Bash(git push*)`) against commands read as the shell reads
// them: the rewrites the fifth security review escaped with, what cannot be known binding, and
// generated rewrites of a push (wrappers, quoting, spacing, git's options, paths, assignments,
// chains, `sh -c`) of which none escapes, while commands that are certainly no push stay free.
const SPECS = ['git push*', 'git push:*'];
const binds = (command: string) => SPECS.every((spec) => commandFallsUnder(spec, command));
const free = (command: string) => SPECS.every((spec) => !commandFallsUnder(spec, command));

describe('a Bash rule', () => {
  it('binds each rewrite the review escaped with', () => {
    for (const command of [
      'git -C . push',
      '/usr/bin/git push',
      'env git push',
      'command git push',
      'git  push',
      '"git" push',
      'git\tpush',
      'timeout 9 git push',
      'eval "git push"',
      'xargs git push',
    ])
      expect(binds(command), command).toBe(true);
  });

  it('looks through wrappers, git’s own options, quoting and nesting', () => {
    for (const command of [
      'env -i PATH=/usr/bin GIT_SSH=x git push',
      'sudo -u root -E git push origin',
      'nice -n 5 nohup git push &',
      'timeout -s KILL --kill-after=1 9s git push',
      'echo push | xargs -n 1 git',
      'ls | xargs -I{} git {}',
      'time -p git --no-pager --git-dir=.git --work-tree . -c user.name=x push',
      "bash -lc 'cd app && git push'",
      'sh -c "sh -c \\"git push\\""',
      'env -S "git push"',
      'find . -maxdepth 0 -exec git push \\;',
      'exec -a x /usr/lib/git-core/git-push',
      "g'i't pu\\sh",
      'echo "$(git push)"',
      'echo `git push`',
      'cat <(git push)',
      'echo ${X:-$(git push)}',
      'if true; then git push; fi',
      'for r in a b; do git push "$r"; done',
      'case "$x" in main) git push;; esac',
      'f() { git push; }',
      'trap "git push" EXIT',
      'strace -f -o log git push',
      'true\ngit push',
      'cat <<EOF\n$(git push)\nEOF',
      'git commit -m "$(cat <<\'EOF\'\nmsg (1)\nEOF\n)" && git push',
    ])
      expect(binds(command), command).toBe(true);
  });

  it('binds what cannot be known: eval, source, expansions in the program’s place, a shell reading its input, git aliases, an unreadable line', () => {
    for (const command of [
      'eval "$CMD"',
      'source ./x.sh',
      '. ./x.sh',
      '$G push',
      '${G} push',
      'git $SUB',
      '$(which git) push',
      '`which git` push',
      'git -C $D status',
      'env X=$Y git status',
      'curl -s https://x | sh',
      'bash -s < script',
      'bash <<< "git push"',
      'xargs sh',
      'sh -c "$CMD"',
      'git -c alias.p=push p',
      '/usr/bin/gi? push',
      'gi[t] push',
      'git pu*',
      'echo "unclosed',
      'echo ) git push',
    ])
      expect(binds(command), command).toBe(true);
  });

  it('leaves free what is certainly no push', () => {
    for (const command of [
      'git status',
      'git pull --rebase',
      'echo git push',
      'echo "git push"',
      "printf '%s\\n' 'git push'",
      'git commit -m "git push later"',
      'grep -r "git push" docs',
      "cat <<'EOF'\ngit push\nEOF",
      'ls $HOME',
      'bash ./build.sh',
      'env A=1 timeout 9 git status',
      'sh -c "echo git push"',
      'git log -- push',
      'find . -name push -exec ls {} +',
      '[[ -n $x && $y ]] && make',
    ])
      expect(free(command), command).toBe(true);
  });

  it('keeps Claude Code’s prefix form and patterns with * anywhere', () => {
    expect(commandFallsUnder('git push:*', 'git pushx')).toBe(false);
    expect(commandFallsUnder('git push:*', 'git push')).toBe(true);
    expect(commandFallsUnder('*deploy*', './scripts/deploy.sh prod')).toBe(true);
    expect(commandFallsUnder('./scripts/deploy.sh*', 'env ./scripts/deploy.sh prod')).toBe(true);
    expect(commandFallsUnder('rm -rf /*', 'rm -rf $DIR')).toBe(true);
    expect(commandFallsUnder('rm -rf /*', 'rm -f ./x')).toBe(false);
  });
});

/** A word written so the shell reads it back as itself: bare, single-quoted, double-quoted, every character escaped, or quoted in part. */
const quoted = (word: string) =>
  fc
    .constantFrom<(w: string) => string>(
      (w) => (/^[\w./=:@%+,-]+$/.test(w) ? w : `'${w}'`),
      (w) => `'${w}'`,
      (w) => `"${w.replace(/["\\$`]/g, '\\$&')}"`,
      (w) => [...w].map((c) => `\\${c}`).join(''),
      (w) => (w.length > 1 ? `${w[0]}"${w.slice(1).replace(/["\\$`]/g, '\\$&')}"` : w),
    )
    .map((quote) => quote(word));

const blank = fc.constantFrom(' ', '  ', '\t', ' \t ');
const wrapper = fc.constantFrom(
  ['env'],
  ['env', 'A=1'],
  ['env', '-i', 'PATH=/usr/bin'],
  ['env', '-u', 'X', '--'],
  ['/usr/bin/env'],
  ['command'],
  ['command', '-p'],
  ['exec'],
  ['nice'],
  ['nice', '-n', '5'],
  ['nice', '-5'],
  ['nohup'],
  ['timeout', '9'],
  ['timeout', '-s', 'KILL', '5s'],
  ['timeout', '--kill-after=1', '9'],
  ['xargs'],
  ['xargs', '-0'],
  ['xargs', '-n', '1'],
  ['sudo'],
  ['sudo', '-u', 'root'],
  ['sudo', '-E', '-n'],
  ['time'],
  ['time', '-p'],
  ['stdbuf', '-oL'],
  ['setsid'],
  ['GIT_SSH=x'],
);
const gitOption = fc.constantFrom(
  ['-C', '.'],
  ['-C', '/repo'],
  ['-c', 'user.name=x'],
  ['--git-dir=.git'],
  ['--git-dir', '.git'],
  ['--work-tree=.'],
  ['--no-pager'],
  ['-p'],
  ['-P'],
  ['--bare'],
  ['--exec-path=/usr/lib/git-core'],
  ['--namespace', 'n'],
  ['--literal-pathspecs'],
);
const program = fc.constantFrom('git', '/usr/bin/git', './git', '../bin/git', '/usr/local/bin/git');
const pushArgs = fc.constantFrom([], ['origin'], ['origin', 'main'], ['-f'], ['--tags'], ['-u', 'origin', 'HEAD']);

/** Words into a line: each word quoted its way, separated by blanks. */
const line = (words: string[]) =>
  fc
    .tuple(fc.tuple(...words.map(quoted)), fc.array(blank, { minLength: words.length, maxLength: words.length }))
    .map(([written, blanks]) => written.map((word, i) => (i ? blanks[i]! : '') + word).join(''));

/** A line put among others or inside shell syntax, or handed to `sh -c`. */
const surround = (inner: string) =>
  fc
    .constantFrom<(l: string) => string>(
      (l) => l,
      (l) => `cd /repo && ${l}`,
      (l) => `true; ${l}; echo done`,
      (l) => `make || ${l}`,
      (l) => `echo x | ${l} | cat`,
      (l) => `( ${l} )`,
      (l) => `{ ${l}; }`,
      (l) => `if true; then ${l}; fi`,
      (l) => `echo $(${l})`,
      (l) => `ls\n${l}\n`,
      (l) => `sh -c '${l.replace(/'/g, `'\\''`)}'`,
      (l) => `bash -lc "${l.replace(/["\\$`]/g, '\\$&')}"`,
    )
    .map((wrap) => wrap(inner));

const push = fc
  .tuple(fc.array(wrapper, { maxLength: 3 }), program, fc.array(gitOption, { maxLength: 3 }), pushArgs)
  .chain(([wrappers, git, options, args]) => line([...wrappers.flat(), git, ...options.flat(), 'push', ...args]))
  .chain((l) => surround(l).chain((once) => fc.oneof(fc.constant(once), surround(once))));

const harmless = fc
  .tuple(
    fc.array(
      wrapper.filter((w) => w[0] !== 'xargs'),
      { maxLength: 2 },
    ),
    fc.constantFrom(
      ['git', 'status'],
      ['git', '-C', '.', 'log', '-n', '3'],
      ['echo', 'git', 'push'],
      ['echo', 'git push'],
      ['printf', '%s', 'push'],
      ['git', 'commit', '-m', 'push it'],
      ['grep', '-r', 'git push', '.'],
      ['ls', '-la'],
      ['npm', 'test'],
    ),
  )
  .chain(([wrappers, words]) => line([...wrappers.flat(), ...words]))
  .chain(surround);

describe('generated rewrites', () => {
  it('of a push: none escapes', () => {
    fc.assert(
      fc.property(push, (command) => binds(command)),
      { numRuns: 3000 },
    );
  });

  it('of commands that are certainly no push: none is taken for one', () => {
    fc.assert(
      fc.property(harmless, (command) => free(command)),
      { numRuns: 1500 },
    );
  });
});
