/**
 * The screenshot script: its own bundle (modern-screenshot is larger than the whole panel), loaded by the panel
 * only when a visitor allows an operator's screenshot request. It draws the page from its DOM into a canvas,
 * leaving the widget out and masking what the site marks private (SCREENSHOT_MASK: the masked element keeps its
 * box, filled grey, and none of its content or value), then keeps the part of the page the visitor sees.
 */
import { domToCanvas } from 'modern-screenshot';
import { MAX_UPLOAD_BYTES } from '../../../server/shared/widget-constants';
import { SCREENSHOT_CALLBACK, SCREENSHOT_MASK, type ScreenshotCapture } from '../lib/types';

const MASK_COLOUR = '#6b7280';

/** The colour behind the page: the body's, else the root's, else white (what a browser paints). */
function pageBackground(): string {
  for (const el of [document.body, document.documentElement]) {
    const colour = getComputedStyle(el).backgroundColor;
    if (colour && colour !== 'transparent' && colour !== 'rgba(0, 0, 0, 0)') return colour;
  }
  return '#fff';
}

function toBlob(canvas: HTMLCanvasElement, type: string, quality?: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no image'))), type, quality),
  );
}

const capture: ScreenshotCapture = async () => {
  const body = document.body;
  const background = pageBackground();
  const scale = Math.min(2, window.devicePixelRatio || 1);
  const rendered = await domToCanvas(body, {
    scale,
    backgroundColor: background,
    timeout: 15_000,
    filter: (node) => {
      if (node.nodeName === 'PARLEY-WIDGET') return false;
      // Nothing inside a masked element is drawn: its text and children stay out of the picture.
      return !node.parentElement?.closest(SCREENSHOT_MASK);
    },
    onCloneEachNode: (cloned) => {
      if (!(cloned instanceof HTMLElement) || !cloned.matches(SCREENSHOT_MASK)) return;
      if (cloned instanceof HTMLInputElement || cloned instanceof HTMLTextAreaElement) {
        cloned.value = '';
        cloned.setAttribute('value', '');
        cloned.removeAttribute('placeholder');
      }
      cloned.textContent = '';
      cloned.style.setProperty('background', MASK_COLOUR, 'important');
      cloned.style.setProperty('color', 'transparent', 'important');
    },
  });
  // What the visitor sees: the viewport, in the body's coordinates (the body may start below a margin).
  const box = body.getBoundingClientRect();
  const ratio = box.width > 0 ? rendered.width / box.width : scale;
  const width = document.documentElement.clientWidth || window.innerWidth;
  const height = window.innerHeight;
  const out = document.createElement('canvas');
  out.width = Math.round(width * ratio);
  out.height = Math.round(height * ratio);
  const g = out.getContext('2d');
  if (!g) throw new Error('no 2d canvas');
  g.fillStyle = background;
  g.fillRect(0, 0, out.width, out.height);
  g.drawImage(rendered, -box.left * ratio, -box.top * ratio, out.width, out.height, 0, 0, out.width, out.height);
  const png = await toBlob(out, 'image/png');
  return png.size <= MAX_UPLOAD_BYTES ? png : toBlob(out, 'image/jpeg', 0.8);
};

(window as unknown as Record<string, ((capture: ScreenshotCapture) => void) | undefined>)[SCREENSHOT_CALLBACK]?.(capture);
