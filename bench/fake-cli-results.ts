import { readFile } from 'node:fs/promises';

/** When the fake CLI printed its result line for this prompt (it notes that beside its log). */
export async function emittedAt(logFile: string, prompt: string): Promise<number> {
  const lines = (await readFile(`${logFile}.results`, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { prompt: string; emittedAt: number });
  return lines.findLast((line) => line.prompt === prompt)!.emittedAt;
}
