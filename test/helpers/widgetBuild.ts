/**
 * The widget's bundles for a browser spec. `npm test` builds them once before its parallel workers start
 * (scripts/test.sh sets PARLEY_TEST_BUILT), and a spec must not rebuild what other workers are serving at that
 * moment (the build empties dist/web/widget first); a spec run alone (`npx mocha test/e2e/x.spec.ts`) builds them.
 */
import { buildWidget } from '../../scripts/build';

export async function widgetBuilt(): Promise<void> {
  if (process.env.PARLEY_TEST_BUILT === '1') return;
  await buildWidget();
}
