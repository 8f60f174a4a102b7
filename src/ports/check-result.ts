/** One line of `npm run doctor`: what was checked, what was found, and what to do when it is wrong. */
export interface CheckResult {
  ok: boolean;
  /** What was checked: "Node", "data directory", "claude". */
  subject: string;
  /** What was found. */
  found: string;
  /** On ✗ (or a warning): what to do about it. */
  fix?: string;
  /** Works, but not as it should: shown with ! and not counted as wrong. */
  warning?: boolean;
  /** Not there, and nothing needs it: shown with – and not counted as wrong. */
  optional?: boolean;
}
