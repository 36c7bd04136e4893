/**
 * `npm run manifest -- --url https://your.host [--out file]`: prints slack-manifest.yml with the placeholder host
 * replaced by your Parley's public URL, ready to paste into Slack's "Create an app from a manifest".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PLACEHOLDER_HOST = 'https://parley.example.com';

export function fillManifest(manifest: string, publicUrl: string): string {
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:') throw new Error('Slack only calls https URLs: give the https address of your Parley');
  const base = url.origin + url.pathname.replace(/\/+$/, '');
  return manifest.split(PLACEHOLDER_HOST).join(base);
}

function main(argv: string[]): void {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const publicUrl = flag('--url');
  if (!publicUrl) {
    console.error('usage: npm run manifest -- --url https://your.host [--out my-manifest.yml]');
    process.exit(2);
  }
  const source = readFileSync(path.join(__dirname, '..', 'slack-manifest.yml'), 'utf8');
  let filled: string;
  try {
    filled = fillManifest(source, publicUrl);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const out = flag('--out');
  if (out) writeFileSync(out, filled);
  else process.stdout.write(filled);
}

if (require.main === module) main(process.argv.slice(2));
