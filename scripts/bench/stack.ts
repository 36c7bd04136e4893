/**
 * The deployment a bench measures, each part its own process (test/helpers/processes.ts): the database, the Slack
 * sandbox and one Parley, with a widget installed and linked to a channel through the real OAuth flow. `--profile dir`
 * on the bench's command line makes Parley's process write a V8 CPU profile into dir when it stops (cpu-profile.mjs).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  freePort,
  type MongoProcess,
  type ParleyProcess,
  type ParleyProcessConfig,
  type ProcessHandle,
  type SlackSandboxProcess,
  setUpWidgetAcross,
  startMongoProcess,
  startParleyProcess,
  startSlackSandboxProcess,
  type WidgetAcross,
} from '../../test/helpers/processes';

const profileAt = process.argv.indexOf('--profile');
/** Where Parley's process writes its CPU profile (`--profile dir`); '' for none. */
export const PROFILE_DIR = profileAt >= 0 ? path.resolve(process.argv[profileAt + 1] ?? '.') : '';

export type BenchStack = {
  mongo: MongoProcess;
  slack: SlackSandboxProcess;
  parley: ParleyProcess;
  widget: WidgetAcross;
  /** Stops the processes started, the last first (also those of a start that failed halfway). */
  stop(): Promise<void>;
};

/**
 * Starts the stack. `slackEntry`: the sandbox's script (default the plain sandbox); `imports`: modules Parley's
 * process loads first (`--import`), the CPU profiler added with `--profile`; `env`: more of Parley's environment.
 */
export async function startBenchStack(options: {
  config: ParleyProcessConfig;
  slackEntry?: string;
  imports?: string[];
  env?: Record<string, string>;
}): Promise<BenchStack> {
  const started: ProcessHandle[] = [];
  const stop = async () => {
    for (const p of started.reverse()) await p.stop().catch(() => undefined);
  };
  try {
    const mongo = await startMongoProcess();
    started.push(mongo);
    const port = await freePort();
    const slack = await startSlackSandboxProcess({ appUrl: `http://127.0.0.1:${port}`, entry: options.slackEntry });
    started.push(slack);
    const imports = [...(options.imports ?? []), ...(PROFILE_DIR ? [path.join(__dirname, 'cpu-profile.mjs')] : [])];
    const parley = await startParleyProcess({
      mongodbUri: mongo.uri,
      dbName: `bench_${randomBytes(4).toString('hex')}`,
      slack,
      jwtSecret: randomBytes(32).toString('hex'),
      port,
      config: options.config,
      name: 'parley',
      env: {
        ...(imports.length ? { NODE_OPTIONS: imports.map((file) => `--import ${file}`).join(' ') } : {}),
        ...(PROFILE_DIR ? { CPU_PROFILE_DIR: PROFILE_DIR } : {}),
        ...options.env,
      },
    });
    started.push(parley);
    const widget = await setUpWidgetAcross({ parleys: [parley], slack });
    return { mongo, slack, parley, widget, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
