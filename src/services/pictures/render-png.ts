import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';

/**
 * SVG to PNG on the server, with resvg (its prebuilt binary from npm). Text is set in DejaVu
 * Sans, whose TTF files come with the `dejavu-fonts-ttf` package and are the only fonts loaded:
 * the picture is the same on every machine, and its words are never blank for want of a font.
 */

const require = createRequire(import.meta.url);

/** The fonts resvg is given: DejaVu Sans, regular and bold. */
export const FONT_FILES: readonly string[] = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];
export const FONT_FAMILY = 'DejaVu Sans';

/**
 * Renders off the main thread (libuv's pool), so a large picture never holds up the bridge: at 2
 * pixels per SVG unit, so words stay sharp on a phone's screen, and its longer side at most
 * `maxSide` pixels (the scale is lowered to fit): 2560, the most a chat app keeps of a photo.
 */
export async function svgToPng(svg: string, { maxSide = 2560 } = {}): Promise<{ png: Buffer; width: number; height: number }> {
  const { width, height } = svgSize(svg);
  const scale = Math.min(2, maxSide / Math.max(width, height, 1));
  const image = await renderAsync(svg, {
    font: { fontFiles: [...FONT_FILES], loadSystemFonts: false, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    fitTo: { mode: 'zoom', value: scale },
    logLevel: 'off',
  });
  return { png: image.asPng(), width: image.width, height: image.height };
}

/** The root element's width and height (what resvg scales); 0 when absent. */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attribute = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)"`).exec(root)?.[1] ?? 0);
  return { width: attribute('width'), height: attribute('height') };
}
