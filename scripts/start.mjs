// `npm start`: build the web bundles when they are missing (or always with --dev, watching), then run the server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

if (dev) {
  spawn(tsx, ['scripts/build.ts', '--watch'], { cwd: root, stdio: 'inherit' });
} else if (!['console/index.html', 'widget/loader.js'].every((file) => existsSync(path.join(root, 'dist', 'web', file)))) {
  const built = spawnSync(tsx, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const server = spawn(tsx, [...(dev ? ['watch'] : []), 'server/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
