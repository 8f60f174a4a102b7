import { layoutGraph } from '../src/services/pictures/graph-layout.ts';
import type { GraphModel, NodeState } from '../src/services/pictures/graph-model.ts';
import { graphSvg } from '../src/services/pictures/graph-svg.ts';
import { svgToPng } from '../src/services/pictures/render-png.ts';
import type { BenchResult } from './report.ts';

/**
 * An orchestration's picture: a plan of 10 steps (analyze, fan out to 8, fan in), and one of
 * 50 (the most a plan may have), laid out, drawn as SVG, and rendered to PNG as the chat gets
 * it. The median of repeated runs, after a warm-up (the first render loads resvg and the fonts).
 */
export async function benchPictures(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const size of [10, 50]) {
    const model = fanGraph(size);
    const svg = graphSvg(model);
    await svgToPng(svg);
    const layout = median(40, () => void layoutGraph(model));
    const drawing = median(40, () => void graphSvg(model));
    const rendered: number[] = [];
    let bytes = 0;
    let pixels = '';
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const png = await svgToPng(svg);
      rendered.push(performance.now() - started);
      bytes = png.png.length;
      pixels = `${png.width}×${png.height}`;
    }
    results.push(
      { suite: 'pictures', name: `${size} steps: layout (dagre)`, value: round(layout), unit: 'ms', note: 'median' },
      { suite: 'pictures', name: `${size} steps: layout + SVG`, value: round(drawing), unit: 'ms', note: 'median' },
      {
        suite: 'pictures',
        name: `${size} steps: SVG → PNG (resvg)`,
        value: round(middle(rendered)),
        unit: 'ms',
        note: `median; ${pixels}, ${Math.round(bytes / 1024)} KiB`,
      },
    );
  }
  return results;
}

function fanGraph(size: number): GraphModel {
  const states: NodeState[] = ['done', 'running', 'waiting', 'failed'];
  const middleIds = Array.from({ length: size - 2 }, (_, i) => `step-${i + 1}`);
  return {
    title: `#1 Bench · ${size} steps`,
    nodes: [
      { id: 'analyze', label: 'analyze', state: 'done', detail: '#1 · 0:42' },
      ...middleIds.map((id, i) => ({ id, label: `Implement part ${i + 1}`, state: states[i % states.length]! })),
      { id: 'integrate', label: 'integrate', state: 'waiting' },
    ],
    edges: middleIds.flatMap((id) => [
      { from: 'analyze', to: id },
      { from: id, to: 'integrate' },
    ]),
  };
}

function median(runs: number, work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return middle(times);
}

const middle = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
const round = (ms: number) => Math.round(ms * 100) / 100;
