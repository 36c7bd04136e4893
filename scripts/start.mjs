// `npm start`: build the web bundles when they are missing (or always with --dev, watching), then run the server
// (with --dev, its log lines made readable by pino-pretty).
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
// Parley logs JSON lines; `npm run dev` alone shows them through pino-pretty (a dev dependency), for a person to read.
const server = spawn(tsx, [...(dev ? ['watch'] : []), 'server/main.ts'], {
  cwd: root,
  stdio: ['inherit', dev ? 'pipe' : 'inherit', 'inherit'],
});
if (dev) {
  // In this process, not a child of its own: Ctrl-C must not end the reader before the server has said goodbye.
  const { default: pinoPretty } = await import('pino-pretty');
  server.stdout.pipe(pinoPretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
