export interface BenchResult {
  suite: string;
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export function printTable(results: BenchResult[]): void {
  const rows = results.map((r) => [r.suite, r.name, r.value.toLocaleString('en-US'), r.unit, r.note ?? '']);
  const header = ['suite', 'measure', 'value', 'unit', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
