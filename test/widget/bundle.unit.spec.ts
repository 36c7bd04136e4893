/** What goes into the visitor widget's bundles: the protocol's constants and types, never its zod schemas. */
import path from 'node:path';
import { expect } from 'chai';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

async function inputsOf(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    platform: 'browser',
    define: { __PARLEY_PANEL__: '"panel.js"' },
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('widget bundles', () => {
  for (const entry of ['web/widget/loader.ts', 'web/widget/panel/index.ts']) {
    it(`leave zod and the protocol's schemas out of ${entry}`, async () => {
      const inputs = await inputsOf(entry);
      expect(inputs.filter((file) => file.includes('node_modules'))).to.deep.equal([]);
      expect(inputs).to.not.include('server/shared/widget-protocol.ts');
    });
  }

  it('keep the screenshot library in the screenshot script, out of the panel', async () => {
    const screenshot = await inputsOf('web/widget/screenshot/index.ts');
    expect(screenshot.some((file) => file.includes('node_modules/modern-screenshot/'))).to.equal(true);
    expect(screenshot).to.not.include('server/shared/widget-protocol.ts');
    expect((await inputsOf('web/widget/panel/index.ts')).some((file) => file.includes('modern-screenshot'))).to.equal(false);
  });

  it('take the protocol limits from the shared constants module', async () => {
    expect(await inputsOf('web/widget/panel/index.ts')).to.include('server/shared/widget-constants.ts');
  });
});
