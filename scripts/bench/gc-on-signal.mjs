// Loaded with `--import` into Parley's process by scripts/bench/relay.ts: on SIGUSR2 it collects garbage (twice, so
// objects freed by finalizers go too) and writes process.memoryUsage() as JSON into GC_REPORT_FILE, so the idle
// sockets' figure is what Parley keeps, not what the collector has not got round to yet.
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

const file = process.env.GC_REPORT_FILE;
if (file) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('SIGUSR2', () => {
    gc();
    gc();
    writeFileSync(file, JSON.stringify({ ...process.memoryUsage(), at: Date.now() }));
  });
}
