import { describe, expect, it } from 'vitest';
import { buildPolicy, narrowPolicy, PolicyError } from '../../src/kernel/policy/tool-policy.ts';

describe('tool policy', () => {
  it('is absent when nothing is asked for: the CLI keeps its defaults', () => {
    expect(buildPolicy({})).toBeUndefined();
  });

  it('carries tool lists and approvals', () => {
    expect(buildPolicy({ allowedTools: ['Read', ' Grep ', 'Read'], disallowedTools: ['Bash'] })).toEqual({
      allowedTools: ['Read', 'Grep'],
      disallowedTools: ['Bash'],
      approvals: false,
    });
    expect(buildPolicy({ ask: true })).toEqual({ approvals: true });
  });

  it('refuses auto-approval without an allowlist (INVALID_PERMISSION_CONFIG)', () => {
    expect(() => buildPolicy({ autoApprove: true })).toThrow(
      new PolicyError('INVALID_PERMISSION_CONFIG', 'auto-approval requires a non-empty list of allowed tools (--allow)'),
    );
    expect(() => buildPolicy({ autoApprove: true, allowedTools: [' '] })).toThrow('INVALID_PERMISSION_CONFIG');
  });

  it("time-boxes and rate-limits auto-approval within the seed's bounds", () => {
    expect(buildPolicy({ autoApprove: true, allowedTools: ['Read', 'Bash'] })).toEqual({
      allowedTools: ['Read', 'Bash'],
      approvals: true,
      autoApprove: { tools: ['Read', 'Bash'], maxDurationSeconds: 3600, perMinute: 60, perRun: 1000 },
    });
    expect(() => buildPolicy({ autoApprove: { maxDurationSeconds: 20_000 }, allowedTools: ['Read'] })).toThrow(
      'INVALID_ARGUMENT: maxDurationSeconds must be 60-14400, got 20000',
    );
    expect(() => buildPolicy({ autoApprove: { perMinute: 1000 }, allowedTools: ['Read'] })).toThrow('INVALID_ARGUMENT: perMinute must be 10-300, got 1000');
  });

  it('refuses a tool both allowed and disallowed, and names that are not tool names', () => {
    expect(() => buildPolicy({ allowedTools: ['Bash'], disallowedTools: ['Bash'] })).toThrow('INVALID_ARGUMENT: Bash cannot be both allowed and disallowed');
    expect(() => buildPolicy({ allowedTools: ['Bash(rm -rf *'] })).toThrow(
      'INVALID_ARGUMENT: not a tool or a permission rule (Tool, Tool(specifier), mcp__server__tool) in the allowed tools: Bash(rm -rf *',
    );
    // Claude Code's rules pass as written
    expect(buildPolicy({ allowedTools: ['Bash(git log:*)', 'mcp__github__create_issue'], disallowedTools: ['Read(secrets/**)'] })).toEqual({
      allowedTools: ['Bash(git log:*)', 'mcp__github__create_issue'],
      disallowedTools: ['Read(secrets/**)'],
      approvals: false,
    });
  });
});

describe('a run started by a run', () => {
  const parent = buildPolicy({ allowedTools: ['Read', 'Grep', 'Bash'], disallowedTools: ['WebFetch'], ask: true })!;

  it('inherits everything when it asks for nothing', () => {
    expect(narrowPolicy(parent, undefined)).toEqual(parent);
    expect(narrowPolicy(undefined, undefined)).toBeUndefined();
  });

  it('keeps only the tools its parent has, adds the ones its parent lacks, and keeps asking the chat', () => {
    expect(narrowPolicy(parent, buildPolicy({ allowedTools: ['Read', 'Write'], disallowedTools: ['Bash'] }))).toEqual({
      allowedTools: ['Read'],
      disallowedTools: ['WebFetch', 'Bash'],
      approvals: true,
    });
  });

  it("is refused when none of the tools it wants is its parent's", () => {
    expect(() => narrowPolicy(parent, buildPolicy({ allowedTools: ['Write'] }))).toThrow(
      new PolicyError('INVALID_PERMISSION_CONFIG', 'none of Write is allowed for the run that starts this one (it has Read, Grep, Bash)'),
    );
  });

  it('auto-approves only what its parent had auto-approved', () => {
    expect(() => narrowPolicy(parent, buildPolicy({ allowedTools: ['Read'], autoApprove: true }))).toThrow(
      'INVALID_PERMISSION_CONFIG: cannot auto-approve Read: the run that starts this one asks the chat for them',
    );
    const auto = buildPolicy({ allowedTools: ['Read', 'Grep'], autoApprove: true })!;
    expect(narrowPolicy(auto, buildPolicy({ allowedTools: ['Read'], autoApprove: true }))).toMatchObject({
      allowedTools: ['Read'],
      approvals: true,
      autoApprove: { tools: ['Read'] },
    });
    // a parent that bypasses permissions may start a run that auto-approves, within its own tools
    const bypass = buildPolicy({ allowedTools: ['Read'] })!;
    expect(narrowPolicy(bypass, buildPolicy({ allowedTools: ['Read', 'Bash'], autoApprove: true }))).toMatchObject({
      allowedTools: ['Read'],
      autoApprove: { tools: ['Read'] },
    });
  });
});

describe('rules across runs', () => {
  it('lets a child narrow a bare tool of its parent to a rule, never widen a rule to the tool', () => {
    const parent = buildPolicy({ allowedTools: ['Bash', 'Read'] })!;
    expect(narrowPolicy(parent, buildPolicy({ allowedTools: ['Bash(git log:*)'] }))).toMatchObject({ allowedTools: ['Bash(git log:*)'] });
    const narrow = buildPolicy({ allowedTools: ['Bash(git log:*)'] })!;
    expect(() => narrowPolicy(narrow, buildPolicy({ allowedTools: ['Bash'] }))).toThrow('none of Bash is allowed for the run that starts this one');
  });
});
