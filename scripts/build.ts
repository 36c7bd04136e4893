/**
 * Builds the web bundles with esbuild.
 *   web/console/main.tsx   → dist/web/console/ (content-hashed JS and CSS, lazy chunks, index.html)
 *   web/widget/<entry>.ts  → dist/web/widget/<entry>.js (stable names: the embed snippet loads them by name)
 *   web/widget/screenshot/index.ts → dist/web/widget/screenshot.<hash>.js (modern-screenshot, loaded by the panel
 *                            only when a visitor allows a screenshot; the panel is built after it, with the hashed
 *                            name compiled in as __PARLEY_SCREENSHOT__; its own budget, outside the panel's)
 *   web/widget/panel/index.ts → dist/web/widget/panel.<hash>.js (the lazily loaded chat panel; the loader is built
 *                            after it, with the hashed name compiled in as __PARLEY_PANEL__)
 * `tsx scripts/build.ts` builds once, minified, and fails when a size budget is exceeded.
 * `tsx scripts/build.ts --watch` rebuilds on change (development React, not minified, no budgets).
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..');
const consoleSrc = path.join(root, 'web', 'console');
const widgetSrc = path.join(root, 'web', 'widget');
const consoleOut = path.join(root, 'dist', 'web', 'console');
const widgetOut = path.join(root, 'dist', 'web', 'widget');
const watch = process.argv.includes('--watch');

const KB = 1024;
/** Product bars (PRODUCT.md §7), in gzipped bytes. */
const BUDGETS = {
  consoleInitialJs: 200 * KB,
  widgetLoader: 5 * KB,
  widgetOther: 30 * KB,
  /** The screenshot script, loaded only once a visitor allows a screenshot. */
  widgetScreenshot: 20 * KB,
};

const gzipSize = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number): string => `${(bytes / KB).toFixed(1)} KB`;
const rel = (file: string): string => path.relative(root, file);

/** Outputs the entry pulls in before anything runs: the entry chunk and its static imports, transitively. */
function initialJs(meta: esbuild.Metafile, entryOut: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of meta.outputs[file]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
    }
  };
  visit(entryOut);
  return [...seen];
}

function indexHtml(script: string, stylesheet: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="theme-color" content="#4f46e5">
<title>Parley</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
${stylesheet ? `<link rel="stylesheet" href="${stylesheet}">\n` : ''}<script type="module" src="${script}"></script>
</head>
<body>
<noscript>Parley needs JavaScript to run.</noscript>
<div id="root"></div>
</body>
</html>
`;
}

/** Files written by hand next to the bundle (not produced by esbuild). */
const STATIC_FILES = ['index.html', 'favicon.svg'];

/** Writes index.html for the console, removes stale hashed files, prints sizes; returns the problems found. */
function finishConsole(meta: esbuild.Metafile, enforce: boolean): string[] {
  const outputs = Object.keys(meta.outputs).map((file) => path.resolve(root, file));
  // Lazily imported modules are entry points of their own in the metafile: pick the one built from main.tsx.
  const entry = Object.entries(meta.outputs).find(([, out]) => out.entryPoint?.endsWith('web/console/main.tsx'));
  if (!entry) return ['the console build produced no entry point'];
  const [entryKey, entryInfo] = entry;
  const script = path.relative(consoleOut, path.resolve(root, entryKey)).split(path.sep).join('/');
  const css = entryInfo.cssBundle
    ? path.relative(consoleOut, path.resolve(root, entryInfo.cssBundle)).split(path.sep).join('/')
    : undefined;
  writeAtomically(path.join(consoleOut, 'favicon.svg'), readFileSync(path.join(consoleSrc, 'favicon.svg')));
  writeAtomically(path.join(consoleOut, 'index.html'), indexHtml(script, css));

  const keep = new Set([...outputs, ...STATIC_FILES.map((f) => path.join(consoleOut, f))]);
  removeStale(consoleOut, keep);

  const initial = initialJs(meta, entryKey).map((file) => path.resolve(root, file));
  const initialBytes = initial.reduce((sum, file) => sum + gzipSize(file), 0);
  for (const file of outputs.filter((f) => !f.endsWith('.map'))) {
    console.log(`  ${rel(file).padEnd(58)} ${kb(gzipSize(file)).padStart(10)} gzipped`);
  }
  console.log(`  console initial JavaScript: ${kb(initialBytes)} gzipped (budget ${kb(BUDGETS.consoleInitialJs)})`);
  if (enforce && initialBytes > BUDGETS.consoleInitialJs) {
    return [`console initial JavaScript is ${kb(initialBytes)} gzipped, over the ${kb(BUDGETS.consoleInitialJs)} budget`];
  }
  return [];
}

/**
 * A running server (or a build running at the same time) never sees a missing or half-written file: the new
 * content replaces the old one in a single rename.
 */
function writeAtomically(file: string, content: string | Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}

function removeStale(dir: string, keep: Set<string>): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      removeStale(file, keep);
      if (readdirSync(file).length === 0) rmSync(file, { recursive: true });
    } else if (!keep.has(file) && !file.endsWith('.tmp')) {
      // A .tmp file belongs to a build running at the same time, about to rename it.
      rmSync(file);
    }
  }
}

export type WidgetSize = { file: string; bytes: number; gzipped: number; budget: number };

function widgetSizes(meta: esbuild.Metafile): WidgetSize[] {
  return Object.keys(meta.outputs)
    .map((f) => path.resolve(root, f))
    .filter((file) => !file.endsWith('.map'))
    .map((file) => ({
      file,
      bytes: statSync(file).size,
      gzipped: gzipSize(file),
      budget:
        path.basename(file) === 'loader.js'
          ? BUDGETS.widgetLoader
          : path.basename(file).startsWith('screenshot')
            ? BUDGETS.widgetScreenshot
            : BUDGETS.widgetOther,
    }));
}

function finishWidget(meta: esbuild.Metafile, enforce: boolean): string[] {
  const problems: string[] = [];
  for (const { file, gzipped: size, budget } of widgetSizes(meta)) {
    console.log(`  ${rel(file).padEnd(58)} ${kb(size).padStart(10)} gzipped (budget ${kb(budget)})`);
    if (enforce && size > budget) problems.push(`${rel(file)} is ${kb(size)} gzipped, over the ${kb(budget)} budget`);
  }
  return problems;
}

const panelEntry = path.join(widgetSrc, 'panel', 'index.ts');
const screenshotEntry = path.join(widgetSrc, 'screenshot', 'index.ts');

/** The screenshot script's options: content-hashed like the panel's. */
function screenshotOptions(dev: boolean): esbuild.BuildOptions {
  return { ...widgetOptions(dev, [screenshotEntry]), entryNames: dev ? 'screenshot' : 'screenshot.[hash]' };
}

/** The panel's options: content-hashed name in production (served immutable), a stable one while watching. */
function panelOptions(dev: boolean, screenshotFile = 'screenshot.js'): esbuild.BuildOptions {
  const base = widgetOptions(dev, [panelEntry]);
  return {
    ...base,
    entryNames: dev ? 'panel' : 'panel.[hash]',
    define: { ...base.define, __PARLEY_SCREENSHOT__: JSON.stringify(screenshotFile) },
  };
}

const outputName = (meta: esbuild.Metafile, fallback: string): string =>
  path.basename(Object.keys(meta.outputs).find((f) => !f.endsWith('.map')) ?? fallback);

/**
 * Builds the screenshot script, then the panel with its file name compiled in, then the loader entries with the
 * panel's; answers every metafile.
 */
async function buildWidgetBundles(dev: boolean, entries: string[]): Promise<esbuild.Metafile[]> {
  const metas: esbuild.Metafile[] = [];
  let panelFile = 'panel.js';
  let screenshotFile = 'screenshot.js';
  if (existsSync(screenshotEntry)) {
    const screenshot = await esbuild.build(screenshotOptions(dev));
    metas.push(screenshot.metafile!);
    screenshotFile = outputName(screenshot.metafile!, screenshotFile);
  }
  if (existsSync(panelEntry)) {
    const panel = await esbuild.build(panelOptions(dev, screenshotFile));
    metas.push(panel.metafile!);
    panelFile = outputName(panel.metafile!, panelFile);
  }
  const loader = await esbuild.build(loaderOptions(dev, entries, panelFile));
  metas.push(loader.metafile!);
  return metas;
}

function loaderOptions(dev: boolean, entries: string[], panelFile: string): esbuild.BuildOptions {
  const base = widgetOptions(dev, entries);
  return { ...base, define: { ...base.define, __PARLEY_PANEL__: JSON.stringify(panelFile) } };
}

/**
 * Builds only the visitor widget (loader and panel) into dist/web/widget, minified; for tests and the size
 * bench. Answers every output with its size and budget.
 */
export async function buildWidget(): Promise<WidgetSize[]> {
  rmSync(widgetOut, { recursive: true, force: true });
  const metas = await buildWidgetBundles(false, widgetEntries());
  return metas.flatMap(widgetSizes);
}

/** Every top-level .ts/.tsx file of web/widget is an entry point; helpers live in subfolders. */
function widgetEntries(): string[] {
  if (!existsSync(widgetSrc)) return [];
  return readdirSync(widgetSrc)
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(widgetSrc, name));
}

/**
 * zod's `z` namespace re-exports every translation of its error messages (~250 KB minified) and esbuild keeps
 * them all. The console only shows messages written in server/shared, so the translation table is left out;
 * the default English messages are imported by zod directly and stay.
 */
const zodWithoutLocales: esbuild.Plugin = {
  name: 'zod-without-locales',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: 'zod-locales', namespace: 'zod-empty' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

function consoleOptions(dev: boolean): esbuild.BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [path.join(consoleSrc, 'main.tsx')],
    outdir: consoleOut,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    metafile: true,
    jsx: 'automatic',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
    loader: { '.svg': 'file', '.png': 'file' },
    plugins: [zodWithoutLocales],
    logLevel: 'warning',
  };
}

function widgetOptions(dev: boolean, entries: string[]): esbuild.BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: entries,
    outdir: widgetOut,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2018'],
    entryNames: '[name]',
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
    logLevel: 'warning',
  };
}

/**
 * The output folders are not emptied first: content-hashed files are added next to the old ones, index.html
 * is swapped in with one rename, and only then are files no longer referenced removed. A server (or a test
 * run) using dist/ meanwhile keeps serving a complete console.
 */
async function buildOnce(): Promise<void> {
  mkdirSync(consoleOut, { recursive: true });
  const problems: string[] = [];
  const started = Date.now();
  const consoleResult = await esbuild.build(consoleOptions(false));
  console.log('console:');
  problems.push(...finishConsole(consoleResult.metafile!, true));

  const entries = widgetEntries();
  if (entries.length > 0) {
    const metas = await buildWidgetBundles(false, entries);
    removeStale(widgetOut, new Set(metas.flatMap((meta) => Object.keys(meta.outputs).map((f) => path.resolve(root, f)))));
    console.log('widget:');
    for (const meta of metas) problems.push(...finishWidget(meta, true));
  }
  console.log(`built in ${Date.now() - started} ms`);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`size budget exceeded: ${problem}`);
    process.exit(1);
  }
}

/** esbuild plugin running `after` with the metafile at the end of every successful rebuild. */
function onRebuilt(label: string, after: (meta: esbuild.Metafile) => void): esbuild.Plugin {
  return {
    name: `after-${label}`,
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        console.log(`${new Date().toLocaleTimeString()} rebuilt ${label}:`);
        after(result.metafile);
      });
    },
  };
}

async function buildWatching(): Promise<void> {
  mkdirSync(consoleOut, { recursive: true });
  const consoleCtx = await esbuild.context({
    ...consoleOptions(true),
    plugins: [zodWithoutLocales, onRebuilt('console', (meta) => void finishConsole(meta, false))],
  });
  await consoleCtx.watch();
  const entries = widgetEntries();
  if (entries.length > 0) {
    const widgetCtx = await esbuild.context({
      ...loaderOptions(true, entries, 'panel.js'),
      plugins: [onRebuilt('widget', (meta) => void finishWidget(meta, false))],
    });
    await widgetCtx.watch();
    if (existsSync(screenshotEntry)) {
      const screenshotCtx = await esbuild.context({
        ...screenshotOptions(true),
        plugins: [onRebuilt('widget screenshot', (meta) => void finishWidget(meta, false))],
      });
      await screenshotCtx.watch();
    }
    if (existsSync(panelEntry)) {
      const panelCtx = await esbuild.context({
        ...panelOptions(true),
        plugins: [onRebuilt('widget panel', (meta) => void finishWidget(meta, false))],
      });
      await panelCtx.watch();
    }
  }
  console.log('watching web/ for changes');
}

if (require.main === module) {
  (watch ? buildWatching() : buildOnce()).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
