/**
 * The layers of server/ are README's list (between <!-- layers --> and <!-- /layers -->): this spec computes the
 * import graph of server/'s folders and root modules from the sources (type-only and dynamic imports included) and
 * fails on an import that runs back up that list, on a cycle between folders, and on a folder nobody placed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { sourceFiles } from '../helpers/sourceFiles';

const ROOT = path.join(__dirname, '..', '..');
const SERVER = path.join(ROOT, 'server');

/** README's layers, top first: each unit ("api", "config.ts") with the index of its line. */
export function readmeLayers(readme: string): Map<string, number> {
  const section = /<!-- layers -->([\s\S]*?)<!-- \/layers -->/.exec(readme);
  if (!section) throw new Error('README.md has no <!-- layers --> list');
  const layers = new Map<string, number>();
  const lines = section[1].split('\n').filter((line) => /^\d+\.\s/.test(line));
  lines.forEach((line, index) => {
    const names = line.replace(/\(.*\)$/, '').match(/`[^`]+`/g) ?? [];
    for (const name of names) layers.set(name.slice(1, -1).replace(/\/$/, ''), index);
  });
  return layers;
}

/** Server code: TypeScript sources, declaration files left out. */
const SERVER_CODE = /^(?!.*\.d\.ts$).*\.tsx?$/;

/** The unit of a file: its top folder under server/, or the root module's file name. */
const unitOf = (file: string): string => path.relative(SERVER, file).split(path.sep)[0];

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * The modules a source names: static imports and re-exports (type-only ones too) as Biome formats them, at the start
 * of a line, side-effect imports and dynamic import() calls.
 */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

export type Edge = { from: string; to: string; file: string; specifier: string };

/** Every import between two units of server/, with the file that makes it. */
export function unitImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SERVER, SERVER_CODE)) {
    for (const fileName of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolve(file, fileName);
      if (!target?.startsWith(SERVER + path.sep)) continue;
      const from = unitOf(file);
      const to = unitOf(target);
      if (from !== to) edges.push({ from, to, file: path.relative(ROOT, file), specifier: fileName });
    }
  }
  return edges;
}

/** Strongly connected components with more than one unit (Tarjan). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w !== undefined) component.push(w);
      } while (w !== v && w !== undefined);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("server/'s folders follow README's layers", () => {
  const layers = readmeLayers(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const edges = unitImports();

  it('sees the graph it checks: the composition root imports the app, the relay and the models', () => {
    const fromMain = new Set(edges.filter((e) => e.from === 'main.ts').map((e) => e.to));
    for (const unit of ['app.ts', 'relay', 'models', 'slack', 'commands']) expect(fromMain).to.include(unit);
    expect(layers.get('main.ts')).to.equal(0);
  });

  it('places every folder and root module of server/ in a layer', () => {
    const units = readdirSync(SERVER).filter((name) => !name.endsWith('.d.ts'));
    const unplaced = units.filter((unit) => !layers.has(unit));
    expect(unplaced, "server/ units missing from README's layer list").to.deep.equal([]);
  });

  it('has no import that runs back up the layers', () => {
    const upward = edges
      .filter((e) => (layers.get(e.to) ?? Number.POSITIVE_INFINITY) < (layers.get(e.from) ?? Number.POSITIVE_INFINITY))
      .map((e) => `${e.file} imports ${e.specifier} (${e.from} is below ${e.to})`);
    expect(upward).to.deep.equal([]);
  });

  it('has no cycle between folders, type-only imports included', () => {
    const found = cycles(edges).map((component) => {
      const inside = edges.filter((e) => component.includes(e.from) && component.includes(e.to));
      return `${component.join(' ↔ ')}: ${inside.map((e) => `${e.file} → ${e.specifier}`).join(', ')}`;
    });
    expect(found).to.deep.equal([]);
  });

  it('keeps Slack out of the relay, the commands and the conversation logic: none of their files imports @slack/*', () => {
    const slackImports = ['relay', 'commands', 'conversations'].flatMap((folder) =>
      sourceFiles(path.join(SERVER, folder), SERVER_CODE).flatMap((file) =>
        specifiers(readFileSync(file, 'utf8'))
          .filter((specifier) => specifier.startsWith('@slack/'))
          .map((specifier) => `${path.relative(ROOT, file)} imports ${specifier}`),
      ),
    );
    expect(slackImports).to.deep.equal([]);
  });

  it("has no import cycle between files anywhere in server/ (the relay's context, the sandboxes' faces included)", () => {
    const fileEdges: Edge[] = sourceFiles(SERVER, SERVER_CODE).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const target = resolve(file, specifier);
        if (!target?.startsWith(SERVER + path.sep)) return [];
        return [{ from: path.relative(SERVER, file), to: path.relative(SERVER, target), file, specifier }];
      }),
    );
    expect(fileEdges.length).to.be.greaterThan(500);
    expect(cycles(fileEdges)).to.deep.equal([]);
  });

  it('reads type-only, multi-line, re-exported and dynamic imports', () => {
    const source = [
      "import type { A } from '../a';",
      'import {',
      '  b,',
      '  type C,',
      "} from '../b';",
      "export { d } from './d';",
      "import './e';",
      "const f = await import('../f');",
      "// import { g } from '../g' is a comment, not at the start of a line",
    ].join('\n');
    expect(specifiers(source).sort()).to.deep.equal(['../a', '../b', '../f', './d', './e']);
  });

  it('finds a cycle and an upward import when there is one', () => {
    const made: Edge[] = [
      { from: 'http', to: 'relay', file: 'a', specifier: 'x' },
      { from: 'relay', to: 'http', file: 'b', specifier: 'y' },
    ];
    expect(cycles(made)).to.deep.equal([['http', 'relay']]);
    expect((layers.get('relay') as number) < (layers.get('http') as number)).to.equal(true);
  });
});
