/**
 * Every command file has a spec of its own that imports it (test/commands/<name>.spec.ts or .unit.spec.ts), so
 * each command's rules are pinned where they live, not only three layers away through the API or the relay.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.join(__dirname, '..', '..');

describe('every server/commands/*.ts has a spec that names it', () => {
  it('finds test/commands/<name>.spec.ts or <name>.unit.spec.ts importing server/commands/<name>', () => {
    const commands = readdirSync(path.join(ROOT, 'server/commands')).filter((f) => f.endsWith('.ts'));
    expect(commands.length).to.be.greaterThan(40);
    const missing = commands
      .map((file) => file.replace(/\.ts$/, ''))
      .filter((name) => {
        const specs = [`${name}.spec.ts`, `${name}.unit.spec.ts`].map((spec) => path.join(ROOT, 'test/commands', spec));
        const imports = new RegExp(`from '\\.\\./\\.\\./server/commands/${name}'`);
        return !specs.some((spec) => {
          try {
            return imports.test(readFileSync(spec, 'utf8'));
          } catch {
            return false;
          }
        });
      });
    expect(missing, `command files without a spec of their own: ${missing.join(', ')}`).to.deep.equal([]);
  });
});
