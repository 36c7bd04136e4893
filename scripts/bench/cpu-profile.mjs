// Loaded with `--import` (NODE_OPTIONS refuses --cpu-prof): profiles this process from start to exit and writes a
// V8 .cpuprofile into CPU_PROFILE_DIR, for scripts/bench/relay.ts --profile.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // A session in the same thread answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `parley-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
