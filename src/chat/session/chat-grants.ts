import type { HostRule } from '../../engine/sandbox/host-rules.ts';

/**
 * What a chat's current session was given, and under what: the secret of its tools (granted
 * afresh only when what they are granted for changes, and revoked then), and what "Allow for
 * this session" covers, people's grants and hosts, which every change of mode, directory, CLI,
 * model or session ends (`epoch` counts those changes).
 */
export class ChatGrants<Tools> {
  private granted: { key: string; tools: Tools } | undefined;
  epoch = 0;
  private hosts: { epoch: number; rules: HostRule[] } = { epoch: 0, rules: [] };

  /** `revoke`: the secret of the tools granted stops working. */
  constructor(private readonly revoke: () => void) {}

  /** The session's tools, as granted for `key`: granted afresh (`grant`) when that changed. */
  tools(key: string, grant: () => Tools): Tools {
    if (this.granted?.key !== key) this.granted = { key, tools: grant() };
    return this.granted.tools;
  }

  /** The session changed (a new one, another CLI, one resumed): all it was given ends; with `revoke`, its tools' secret stops working now. */
  endSession(revoke: boolean): void {
    this.epoch++;
    if (this.granted && revoke) this.revoke();
    this.granted = undefined;
  }

  /** A setting changed (mode, directory, CLI, model): what "Allow for this session" was given under ends. */
  settingChanged(): void {
    this.epoch++;
  }

  /** Tools granted for another `key` than this one: their secret stops working now. */
  revokeUnlessFor(key: string): void {
    if (!this.granted || this.granted.key === key) return;
    this.revoke();
    this.granted = undefined;
  }

  /** The hosts allowed for the current session (never written: a new session or setting ends them). */
  get hostRules(): readonly HostRule[] {
    return this.hosts.epoch === this.epoch ? this.hosts.rules : [];
  }

  /** A host allowed for the current session ("Allow for this session"). */
  allowHost(rule: HostRule): void {
    this.hosts = { epoch: this.epoch, rules: [...this.hostRules, rule] };
  }
}
