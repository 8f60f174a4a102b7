import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { get } from '../api.ts';
import { dollars, money, MONEY_STEPS } from '../format.ts';
import type { Tally } from '../types.ts';

type Day = { day: string; tallies: Record<string, Tally> };
type PersonSpend = { key: string; name?: string; tally: Tally };

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7'];

/** Cost per day, one bar series per CLI and model, and the totals under it. */
export function Costs() {
  const [days, setDays] = useState<Day[] | undefined>();
  const [people, setPeople] = useState<PersonSpend[]>([]);
  const [error, setError] = useState('');
  const chart = useRef<HTMLDivElement>(null);
  useEffect(() => {
    get<Day[]>('/usage').then(setDays, (e: Error) => setError(e.message));
    get<PersonSpend[]>('/usage/people').then(setPeople, (e: Error) => setError(e.message));
  }, []);
  const kinds = [...new Set((days ?? []).flatMap((d) => Object.keys(d.tallies)))].sort();
  useEffect(() => {
    if (!days?.length || !chart.current) return;
    // The days as categories, 0…n-1, each labelled with its date: a bar per day, however few.
    const x = days.map((_d, i) => i);
    // The axes' words in the page's own text colour (a canvas knows no CSS), light or dark.
    const ink = getComputedStyle(chart.current).color;
    const series = kinds.map((kind) => days.map((d) => d.tallies[kind]?.costUsd ?? 0));
    const bars = uPlot.paths.bars!({ size: [0.8 / Math.max(kinds.length, 1), 40] });
    const plot = new uPlot(
      {
        width: chart.current.clientWidth,
        height: 260,
        scales: { x: { time: false, range: [-0.5, days.length - 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: ink, space: 50, incrs: [1, 7, 30], values: (_u, ticks) => ticks.map((t) => days[t]?.day.slice(5) ?? '') },
          // Steps of 1, 2 and 5 (cents, dollars), each label with the decimals its step needs: no two alike.
          { stroke: ink, size: 70, space: 36, incrs: MONEY_STEPS, values: (_u, ticks, _axis, _space, step) => ticks.map((t) => dollars(t, step)) },
        ],
        series: [
          { label: 'Day', value: (_u, i) => days[i]?.day ?? '' },
          ...kinds.map((kind, i) => ({ label: kind, stroke: COLORS[i % COLORS.length], fill: `${COLORS[i % COLORS.length]}99`, paths: bars })),
        ],
      },
      [x, ...series],
      chart.current,
    );
    const resize = () => plot.setSize({ width: chart.current!.clientWidth, height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [days]);
  if (error) return <p class="error">{error}</p>;
  if (!days) return <p class="muted">Loading…</p>;
  if (!days.length) return <p class="muted">Nothing has cost anything yet.</p>;
  const totals = kinds.map((kind) => ({ kind, usd: days.reduce((sum, d) => sum + (d.tallies[kind]?.costUsd ?? 0), 0) }));
  return (
    <section aria-labelledby="costs-title">
      <h1 id="costs-title">Cost per day (UTC)</h1>
      <div ref={chart} class="chart" data-testid="cost-chart" />
      <table class="totals">
        <caption class="visually-hidden">Totals by CLI and model</caption>
        <tbody>
          {totals.map((t) => (
            <tr key={t.kind}>
              <th scope="row">{t.kind}</th>
              <td>{money(t.usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {people.length > 0 && (
        <table class="totals" data-testid="cost-people">
          <caption>By person (the work they typed, started or scheduled)</caption>
          <tbody>
            {people.map((p) => (
              <tr key={p.key}>
                <th scope="row">{p.name ? `${p.name} (${p.key})` : p.key}</th>
                <td>{money(p.tally.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
