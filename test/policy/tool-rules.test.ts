import { describe, expect, it } from 'vitest';
import { isToolRule, ruleCovers, ruleMatches, ruleTool, splitToolRules } from '../../src/kernel/policy/tool-rules.ts';

describe("Claude Code's permission rules", () => {
  it('accepts what Claude Code accepts', () => {
    for (const rule of [
      'Read',
      'Bash(git log:*)',
      'Read(src/**)',
      'WebFetch(domain:example.com)',
      'mcp__github',
      'mcp__github__create_issue',
      'Bash(echo (nested))',
    ]) {
      expect(isToolRule(rule), rule).toBe(true);
    }
    for (const rule of ['', 'Bash(unclosed', 'Bash)(', '1Tool', 'Bash(x) trailing', 'two words']) expect(isToolRule(rule), rule).toBe(false);
  });

  it('splits a list on the commas outside a specifier', () => {
    expect(splitToolRules('Bash(git log:*), Read ,Bash(echo a,b)')).toEqual(['Bash(git log:*)', 'Read', 'Bash(echo a,b)']);
    expect(splitToolRules(' , ')).toEqual([]);
  });

  it('knows the tool a rule is about, and which rules cover which', () => {
    expect(ruleTool('Bash(git log:*)')).toBe('Bash');
    expect(ruleCovers('Bash', 'Bash(git log:*)')).toBe(true);
    expect(ruleCovers('Bash(git log:*)', 'Bash(git log:*)')).toBe(true);
    expect(ruleCovers('Bash(git log:*)', 'Bash')).toBe(false);
    expect(ruleCovers('Bash(git log:*)', 'Bash(git:*)')).toBe(false);
  });

  it('matches only what it can be sure of, for auto-approval', () => {
    expect(ruleMatches('Read', 'Read', { file_path: 'x' })).toBe(true);
    expect(ruleMatches('Bash(git log:*)', 'Bash', { command: 'git log -3' })).toBe(true);
    expect(ruleMatches('Bash(git log:*)', 'Bash', { command: 'git log' })).toBe(true);
    expect(ruleMatches('Bash(git log:*)', 'Bash', { command: 'git logrotate' })).toBe(false);
    expect(ruleMatches('Bash(git log:*)', 'Bash', { command: 'rm -rf /' })).toBe(false);
    expect(ruleMatches('Bash(make)', 'Bash', { command: 'make' })).toBe(true);
    expect(ruleMatches('Read(src/**)', 'Read', { file_path: 'src/a.ts' })).toBe(false); // asked, never guessed
    expect(ruleMatches('Bash', 'Read', {})).toBe(false);
  });
});
