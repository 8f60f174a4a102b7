import { execa } from 'execa';

/** One sample of Prometheus text: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape (comments left out); label values unescaped. */
export function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
      if (!match) throw new Error(`not a Prometheus sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named so whose labels include `labels`. */
export function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** `promtool check metrics` (Debian's prometheus package) on a scrape: its complaints, empty when there are none. */
export async function promtoolProblems(text: string): Promise<string> {
  const result = await execa('promtool', ['check', 'metrics'], { input: text, reject: false });
  return result.exitCode === 0 ? '' : `${result.stdout}${result.stderr}`.trim() || `promtool exited ${result.exitCode}`;
}

/** GET a metrics URL: its status, type and body. */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url, { headers });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}
