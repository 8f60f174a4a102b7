import { describe, expect, it } from 'vitest';
import { callFallsUnder, ruleFor, rulesCovering, type ApprovalRule } from '../../src/kernel/policy/approval-rules.ts';
import { parseToolPolicy } from '../../src/kernel/policy/tool-policy-file.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';

const rule = (tool: string, approvals = 2): ApprovalRule => ({ tool, approvals });
const bash = (command: string) => ({ tool: 'Bash', input: { command } });

describe('the tool policy’s rules', () => {
  it('match commands with * anywhere, whole and in each part, and Claude Code’s prefix form', () => {
    const push = rule('Bash(git push*)');
    for (const command of ['git push', 'git push origin main', 'cd app && git push -f', 'make && GIT_SSH=x git push', 'echo $(git push)'])
      expect(callFallsUnder(push, bash(command)), command).toBe(true);
    for (const command of ['git status', 'echo git push', 'git pull']) expect(callFallsUnder(push, bash(command)), command).toBe(false);
    expect(callFallsUnder(rule('Bash(*deploy*)'), bash('./scripts/deploy.sh prod'))).toBe(true);
    expect(callFallsUnder(rule('Bash(git push:*)'), bash('git push origin'))).toBe(true);
    expect(callFallsUnder(rule('Bash(git push:*)'), bash('git pushx'))).toBe(false);
    expect(callFallsUnder(rule('Bash'), bash('ls'))).toBe(true);
    // Codex's names for a command, and the shell it runs it in.
    expect(callFallsUnder(push, { tool: 'shell', input: { command: "/bin/bash -lc 'cd app && git push'" } })).toBe(true);
    expect(callFallsUnder(push, { tool: 'shell', input: { command: "bash -lc 'git status'" } })).toBe(false);
    expect(callFallsUnder(rule('Bash(git push*)'), { tool: 'Write', input: { file_path: 'git push' } })).toBe(false);
  });

  it('bind on each CLI’s own tools, by the names its dialect gives them in Claude Code’s words (a decoder’s toolNames)', () => {
    for (const tool of ['shell', 'exec_command', 'Execute'])
      expect(callFallsUnder(rule('Bash(git push*)'), { tool, input: { command: 'git push' } }), tool).toBe(true);
    expect(callFallsUnder(rule('Edit'), { tool: 'edit', input: {} })).toBe(true);
    // Nothing a prototype holds is taken for a tool's other name.
    expect(callFallsUnder(rule('Bash'), { tool: 'constructor', input: {} })).toBe(false);
  });

  it('match paths, domains and MCP servers, and cover every call where a specifier cannot be read', () => {
    expect(callFallsUnder(rule('Edit(deploy/**)'), { tool: 'Edit', input: { file_path: '/repo/deploy/prod/k8s.yaml' } })).toBe(true);
    expect(callFallsUnder(rule('Edit(deploy/**)'), { tool: 'Edit', input: { file_path: '/repo/src/a.ts' } })).toBe(false);
    // A path is matched letter for letter: spaces and letters beyond ASCII too, and a dot is a dot.
    expect(callFallsUnder(rule('Edit(données/**)'), { tool: 'Edit', input: { file_path: '/repo/données/clients.csv' } })).toBe(true);
    expect(callFallsUnder(rule('Write(release notes.md)'), { tool: 'Write', input: { file_path: '/repo/release notes.md' } })).toBe(true);
    expect(callFallsUnder(rule('Edit(.env)'), { tool: 'Edit', input: { file_path: '/repo/xenv' } })).toBe(false);
    expect(callFallsUnder(rule('WebFetch(domain:prod.example.com)'), { tool: 'WebFetch', input: { url: 'https://api.prod.example.com/x' } })).toBe(true);
    expect(callFallsUnder(rule('mcp__prod'), { tool: 'mcp__prod__restart', input: {} })).toBe(true);
    expect(callFallsUnder(rule('mcp__prod'), { tool: 'mcp__production__x', input: {} })).toBe(false);
    expect(callFallsUnder(rule('SomeTool(whatever)'), { tool: 'SomeTool', input: {} })).toBe(true);
  });

  it("cover an agent's work, and the call that hands work to it", () => {
    const deployer: ApprovalRule = { agent: 'deployer', approvals: 2 };
    expect(callFallsUnder(deployer, { ...bash('ls'), agent: 'deployer' })).toBe(true);
    expect(callFallsUnder(deployer, bash('ls'))).toBe(false);
    expect(callFallsUnder(deployer, { tool: 'Task', input: { subagent_type: 'deployer', prompt: 'x' } })).toBe(true);
  });

  it('take the rule needing the most approvals, and say which work they could meet', () => {
    expect(ruleFor([rule('Bash'), rule('Bash(git push*)', 3)], bash('git push'))?.approvals).toBe(3);
    const rules = [rule('Bash(git push*)'), { agent: 'deployer', approvals: 2 }];
    expect(rulesCovering(rules, {})).toEqual([rules[0]]);
    expect(rulesCovering(rules, { readOnly: true })).toEqual([]);
    expect(rulesCovering(rules, { allowedTools: ['Read', 'Edit'] })).toEqual([]);
    expect(rulesCovering(rules, { allowedTools: ['Bash(npm test:*)'] })).toEqual([rules[0]]);
    expect(rulesCovering(rules, { disallowedTools: ['Bash'] })).toEqual([]);
    expect(rulesCovering(rules, { agent: 'deployer' })).toEqual(rules);
  });
});

describe('tool-policy.json', () => {
  const parse = (json: unknown) => parseToolPolicy(JSON.stringify(json), '/data/tool-policy.json');
  it('takes rules of a tool, an agent or both', () => {
    expect(
      parse({
        rules: [
          { tool: 'Bash(git push*)', approvals: 2 },
          { agent: 'deployer', approvals: 3 },
        ],
      }),
    ).toEqual([
      { tool: 'Bash(git push*)', approvals: 2 },
      { agent: 'deployer', approvals: 3 },
    ]);
  });

  it('names the file and the field of a mistake', () => {
    const fails = (json: unknown) => {
      try {
        parse(json);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(fails({ rules: [{ tool: 'Bash(git push*)', approvals: 1 }] })).toBe(
      '/data/tool-policy.json: field "rules.0.approvals": expected 2 or more (one Allow is what every question takes)',
    );
    expect(fails({ rules: [{ approvals: 2 }] })).toBe('/data/tool-policy.json: field "rules.0": expected "tool", "agent" or both');
    expect(fails({ rules: [{ tool: 'Bash(unclosed', approvals: 2 }] })).toMatch(
      /^\/data\/tool-policy\.json: field "rules\.0\.tool": expected a tool or a permission rule/,
    );
    expect(fails({ rules: [{ tool: 'Read(secrets/**)', approvals: 2 }] })).toBe(
      '/data/tool-policy.json: field "rules.0.tool": Read runs without asking anybody, so no call of it can wait for approvals',
    );
    expect(fails({ rule: [] })).toMatch(/^\/data\/tool-policy\.json: field "/);
    expect(() => parseToolPolicy('{', '/data/tool-policy.json')).toThrow(/^\/data\/tool-policy\.json: not valid JSON/);
  });
});
