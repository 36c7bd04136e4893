/**
 * The picture of the page an operator asked for: drawn by the screenshot script (its own bundle, screenshot/),
 * loaded the first time a visitor allows a screenshot.
 */
import { SCREENSHOT_CALLBACK, type ScreenshotCapture } from '../lib/types';
import { h } from './dom';

/** File name of the content-hashed screenshot script, set by scripts/build.ts. */
declare const __PARLEY_SCREENSHOT__: string;

/** Browsers without canvas export or SVG images of HTML cannot draw the page: they are not asked to try. */
const canScreenshot = (): boolean =>
  typeof HTMLCanvasElement !== 'undefined' &&
  typeof HTMLCanvasElement.prototype.toBlob === 'function' &&
  typeof XMLSerializer !== 'undefined';

/** Takes a picture of the page with the screenshot script from Parley's origin `base`; rejects when it cannot. */
export function createCapture(base: string): () => Promise<Blob> {
  let loading: Promise<ScreenshotCapture> | undefined;
  /** The screenshot script, loaded once; rejects when it cannot load (and is tried again next time). */
  function script(): Promise<ScreenshotCapture> {
    loading ??= new Promise<ScreenshotCapture>((resolve, reject) => {
      const w = window as unknown as Record<string, unknown>;
      w[SCREENSHOT_CALLBACK] = (capture: ScreenshotCapture) => {
        delete w[SCREENSHOT_CALLBACK];
        resolve(capture);
      };
      const tag = h('script', { async: true, src: `${base}/widget/${__PARLEY_SCREENSHOT__}` });
      tag.onerror = () => {
        loading = undefined;
        reject(new Error('the screenshot script did not load'));
      };
      document.head.appendChild(tag);
    });
    return loading;
  }
  return async () => {
    if (!canScreenshot()) throw new Error('this browser cannot draw the page');
    const capture = await script();
    return capture();
  };
}
