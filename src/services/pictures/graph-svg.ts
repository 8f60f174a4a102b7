import { layoutGraph, METRICS, type PlacedEdge, type PlacedNode, type Point } from './graph-layout.ts';
import type { GraphModel, NodeState } from './graph-model.ts';

/**
 * A graph as an SVG document, drawn from its layout: a box per node, coloured and marked by
 * its state, with its label and a second line (the state's word, a detail), and arrows along
 * the edges. Every node is `<g data-node="<id>" data-state="<state>">` and every edge `<path
 * data-from data-to>`, so a page (or a browser test) can find them. No Node API is used: a web
 * page can build the same SVG.
 */

export interface SvgOptions {
  /** Behind the graph: a colour, or null for none (a page's own). White by default: a chat photo has no transparency. */
  background?: string | null;
  /** Starts the ids inside the SVG (its arrowheads), for a page that shows several at once. */
  idPrefix?: string;
}

interface Style {
  fill: string;
  stroke: string;
  text: string;
  strokeWidth: number;
  dash?: string;
  /** The mark's shape inside its circle (centred on 0,0, white), drawn as a stroke or a fill. */
  mark?: { d: string; as: 'stroke' | 'fill' };
}

export const STATE_STYLE: Record<NodeState, Style> = {
  waiting: { fill: '#f8fafc', stroke: '#94a3b8', text: '#334155', strokeWidth: 1.5, dash: '5 3' },
  running: { fill: '#dbeafe', stroke: '#2563eb', text: '#1e3a8a', strokeWidth: 2.5, mark: { d: 'M-2.5,-3.8L3.8,0L-2.5,3.8Z', as: 'fill' } },
  done: { fill: '#dcfce7', stroke: '#16a34a', text: '#14532d', strokeWidth: 1.5, mark: { d: 'M-3.6,0.2L-1.2,2.6L3.6,-2.4', as: 'stroke' } },
  failed: { fill: '#fee2e2', stroke: '#dc2626', text: '#7f1d1d', strokeWidth: 1.5, mark: { d: 'M-3,-3L3,3M3,-3L-3,3', as: 'stroke' } },
  skipped: { fill: '#f5f5f4', stroke: '#a8a29e', text: '#78716c', strokeWidth: 1.5, dash: '2 3', mark: { d: 'M-3.5,0L3.5,0', as: 'stroke' } },
  stopped: { fill: '#ffedd5', stroke: '#ea580c', text: '#7c2d12', strokeWidth: 1.5, mark: { d: 'M-3,-3H3V3H-3Z', as: 'fill' } },
};

const EDGE = { plain: '#94a3b8', done: '#16a34a' } as const;

export function graphSvg(model: GraphModel, options: SvgOptions = {}): string {
  const layout = layoutGraph(model);
  const prefix = escapeXml(options.idPrefix ?? '');
  const background = options.background === undefined ? '#ffffff' : options.background;
  const stateOf = new Map(layout.nodes.map((node) => [node.id, node.state]));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" font-family="${escapeXml(METRICS.fontFamily)}">`,
    `<defs>${Object.entries(EDGE)
      .map(
        ([kind, colour]) =>
          `<marker id="${prefix}arrow-${kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10Z" fill="${colour}"/></marker>`,
      )
      .join('')}</defs>`,
    background ? `<rect width="100%" height="100%" fill="${escapeXml(background)}"/>` : '',
    layout.title
      ? `<text x="${METRICS.margin}" y="${METRICS.margin + METRICS.titleSize}" font-size="${METRICS.titleSize}" font-weight="bold" fill="#0f172a">${escapeXml(layout.title)}</text>`
      : '',
    ...layout.edges.map((edge) => edgeSvg(edge, stateOf.get(edge.from) === 'done' ? 'done' : 'plain', prefix)),
    ...layout.nodes.map(nodeSvg),
    '</svg>',
  ];
  return parts.join('');
}

function edgeSvg(edge: PlacedEdge, kind: keyof typeof EDGE, prefix: string): string {
  return `<path data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}" d="${curve(edge.points)}" fill="none" stroke="${EDGE[kind]}" stroke-width="1.5" marker-end="url(#${prefix}arrow-${kind})"/>`;
}

function nodeSvg(node: PlacedNode): string {
  const style = STATE_STYLE[node.state];
  const middle = node.height / 2;
  const textX = METRICS.padLeft;
  const mark = style.mark
    ? style.mark.as === 'fill'
      ? `<path d="${style.mark.d}" fill="#ffffff"/>`
      : `<path d="${style.mark.d}" fill="none" stroke="#ffffff" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>`
    : '';
  return [
    `<g data-node="${escapeXml(node.id)}" data-state="${node.state}" transform="translate(${num(node.x)},${num(node.y)})">`,
    // The whole label, for a page's tooltip, when the box shows it cut short.
    `<title>${escapeXml(node.label)}</title>`,
    `<rect width="${num(node.width)}" height="${num(node.height)}" rx="8" fill="${style.fill}" stroke="${style.stroke}" stroke-width="${style.strokeWidth}"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`,
    `<g transform="translate(16,${num(middle)})">`,
    style.mark ? `<circle r="8" fill="${style.stroke}"/>` : `<circle r="7" fill="#ffffff" stroke="${style.stroke}" stroke-width="1.5"/>`,
    mark,
    '</g>',
    `<text x="${textX}" y="${num(middle - 3)}" font-size="${METRICS.labelSize}" font-weight="bold" fill="${style.text}">${escapeXml(node.shownLabel)}</text>`,
    `<text x="${textX}" y="${num(middle + 13)}" font-size="${METRICS.detailSize}" fill="${style.text}">${escapeXml(node.shownDetail)}</text>`,
    '</g>',
  ].join('');
}

/** A smooth line through the points (a uniform B-spline, as d3's curveBasis draws it), ending on the last one. */
function curve(points: Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  if (rest.length < 2) return `M${pt(first)}${rest.map((p) => `L${pt(p)}`).join('')}`;
  let [x0, y0, x1, y1] = [first.x, first.y, rest[0]!.x, rest[0]!.y];
  let d = `M${pt(first)}L${num((5 * x0 + x1) / 6)},${num((5 * y0 + y1) / 6)}`;
  const bend = (x: number, y: number) => {
    d += `C${num((2 * x0 + x1) / 3)},${num((2 * y0 + y1) / 3)} ${num((x0 + 2 * x1) / 3)},${num((y0 + 2 * y1) / 3)} ${num((x0 + 4 * x1 + x) / 6)},${num((y0 + 4 * y1 + y) / 6)}`;
    [x0, y0, x1, y1] = [x1, y1, x, y];
  };
  for (const p of rest.slice(1)) bend(p.x, p.y);
  bend(x1, y1);
  return `${d}L${num(x1)},${num(y1)}`;
}

const pt = (p: Point) => `${num(p.x)},${num(p.y)}`;
const num = (n: number) => String(Math.round(n * 10) / 10);

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** What XML 1.0 cannot hold at all (control characters, lone surrogates): a parser would refuse the document. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text or an attribute's value, safe inside an SVG document. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}
