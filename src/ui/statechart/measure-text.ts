/**
 * Text widths for the layout, measured in the page's monospace font with a
 * canvas, so boxes and labels fit the text the SVG draws. Falls back to the
 * estimate where there is no canvas.
 */
import { estimateText, type MeasureText } from './chart-layout.ts';

export function canvasMeasure(): MeasureText {
  const context =
    typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return estimateText;
  const family =
    getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim() ||
    'monospace';
  return (text, fontPx, bold = false) => {
    context.font = `${bold ? 700 : 400} ${fontPx}px ${family}`;
    return context.measureText(text).width;
  };
}
