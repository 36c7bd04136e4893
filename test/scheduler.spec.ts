/**
 * The one scheduler of Parley's timed work (server/scheduler.ts, its list in server/tasks.ts): each task's runs,
 * durations, failures and last run in /metrics, an overdue task named by /health, and a task of the deployment run by
 * one process at a time when several share the database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import mongoose, { type Connection } from 'mongoose';
import request from 'supertest';
import { createHealth } from '../server/http/health';
import { createLogger } from '../server/logger';
import { createMetrics } from '../server/metrics';
import { createModels } from '../server/models';
import { createScheduler, type Scheduler } from '../server/scheduler';
import { useServer } from './helpers/app';
import { testMongoUri, uniqueDbName } from './helpers/mongo';
import { FAST_PROCESS_CONFIG, type Stack, startStack } from './helpers/processes';
import { parsePrometheus, sampleValue } from './helpers/prometheus';
import { FAST_RELAY } from './helpers/testConfig';
import { eventually } from './relay/helpers';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;

const scrape = async (url: string) => {
  const res = await request(url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  return parsePrometheus(res.text).samples;
};

describe('the scheduler', () => {
  describe("a Parley's tasks in /metrics", () => {
    const backupDir = mkdtempSync(path.join(tmpdir(), 'parley-scheduler-backups-'));
    after(() => rmSync(backupDir, { recursive: true, force: true }));
    // Due work and operating hours every 150 ms, a backup every 0.36 s.
    const server = useServer({
      metricsToken: TOKEN,
      relay: { ...FAST_RELAY, inactivityCheckMs: 150, scheduleCheckMs: 150 },
      backup: { dir: backupDir, everyHours: 0.0001, keep: 1 },
    });

    it("counts each task's runs with their duration and the end of the last one, its failures, and none overdue", async () => {
      const before = Date.now() / 1000;
      await eventually(async () => {
        const samples = await scrape(server.url);
        for (const task of ['due-work', 'operating-hours', 'backup'])
          expect(sampleValue(samples, 'parley_task_run_seconds_count', { task, outcome: 'ok' }), task).to.be.at.least(2);
      });
      const samples = await scrape(server.url);
      for (const task of ['due-work', 'operating-hours', 'backup']) {
        expect(sampleValue(samples, 'parley_task_last_run_timestamp_seconds', { task }), task).to.be.within(before - 5, Date.now() / 1000);
        expect(sampleValue(samples, 'parley_task_run_seconds_sum', { task, outcome: 'ok' }), task).to.be.greaterThan(0);
      }
      // Retention waits its first minute; nothing is late.
      expect(sampleValue(samples, 'parley_task_run_seconds_count', { task: 'retention', outcome: 'ok' })).to.equal(undefined);
      for (const task of ['due-work', 'operating-hours', 'retention', 'backup'])
        expect(sampleValue(samples, 'parley_task_overdue', { task }), task).to.equal(0);
      const health = await request(server.url).get('/health').expect(200);
      expect(health.body).to.not.have.property('overdueTasks');

      // The backup folder becomes a file: each backup fails, is counted, and is tried again.
      rmSync(backupDir, { recursive: true, force: true });
      writeFileSync(backupDir, 'not a folder');
      await eventually(async () => {
        const failing = await scrape(server.url);
        expect(sampleValue(failing, 'parley_task_failures_total', { task: 'backup' })).to.be.at.least(1);
        expect(sampleValue(failing, 'parley_task_run_seconds_count', { task: 'backup', outcome: 'failed' })).to.be.at.least(1);
      });
      expect(sampleValue(await scrape(server.url), 'parley_task_failures_total', { task: 'due-work' })).to.equal(undefined);
    });
  });

  describe('a task that does not come back', () => {
    let connection: Connection;
    let scheduler: Scheduler;
    let http: Server;
    let release = () => {};
    before(async () => {
      connection = await mongoose.createConnection(await testMongoUri(), { dbName: uniqueDbName('scheduler') }).asPromise();
      const metrics = createMetrics({ processMetrics: false });
      scheduler = createScheduler({
        tasks: [
          { name: 'quick', scope: 'process', everyMs: 100, run: async () => {} },
          {
            name: 'stuck',
            scope: 'process',
            everyMs: 200,
            firstAfterMs: 0,
            overdueAfterMs: 200,
            run: () =>
              new Promise<void>((resolve) => {
                release = resolve;
              }),
          },
        ],
        metrics,
        logger: createLogger({ level: 'silent' }),
      });
      const health = createHealth({ connection, overdueTasks: () => scheduler.overdue() });
      const app = express();
      app.use(health.router);
      app.get('/metrics', async (_req, res) => {
        res.type('text/plain').send(await metrics.registry.metrics());
      });
      http = createServer(app);
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      scheduler.start();
    });
    after(async () => {
      release();
      await scheduler?.stop();
      await new Promise((resolve) => http?.close(resolve));
      await connection?.close();
    });

    it('is named by /health once late by more than it may be, while the process still answers 200', async () => {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      await eventually(async () => {
        const health = await request(url).get('/health').expect(200);
        expect(health.body.status).to.equal('ok');
        expect(health.body.overdueTasks).to.have.length(1);
        expect(health.body.overdueTasks[0]).to.include({ task: 'stuck' });
        expect(Date.parse(health.body.overdueTasks[0].dueAt)).to.be.below(Date.now() - 200);
        expect(health.body.overdueTasks[0].lateSeconds).to.be.a('number');
      });
      const { samples } = parsePrometheus((await request(url).get('/metrics').expect(200)).text);
      expect(sampleValue(samples, 'parley_task_overdue', { task: 'stuck' })).to.equal(1);
      expect(sampleValue(samples, 'parley_task_overdue', { task: 'quick' })).to.equal(0);

      // Once it comes back it is due again in the future: no longer overdue.
      release();
      await eventually(async () => {
        const health = await request(url).get('/health').expect(200);
        expect(health.body).to.not.have.property('overdueTasks');
      });
    });
  });

  describe('a task once per deployment, with two Parley processes', function () {
    this.timeout(180_000);
    let stack: Stack;
    const RETENTION_EVERY_MS = 400;
    before(async () => {
      stack = await startStack({
        parleys: 2,
        config: {
          ...FAST_PROCESS_CONFIG,
          relay: { ...FAST_RELAY, inactivityCheckMs: 200 },
          tasks: { retention: { everyMs: RETENTION_EVERY_MS, firstAfterMs: 0 } },
        },
        env: { METRICS_TOKEN: TOKEN },
      });
    });
    after(() => stack?.close());

    it('runs retention in one process a time, and the due work in each process', async () => {
      const runs = async (task: string) =>
        Promise.all(
          stack.parleys.map(async (p) => sampleValue(await scrape(p.url), 'parley_task_run_seconds_count', { task, outcome: 'ok' }) ?? 0),
        );
      await eventually(async () => {
        const [a, b] = await runs('due-work');
        expect(a).to.be.at.least(3);
        expect(b).to.be.at.least(3);
        const [ra, rb] = await runs('retention');
        expect(ra + rb).to.be.at.least(2);
      }, 60_000);
      // While the due work runs 15 more times (3 s or more): one retention run an interval across both processes,
      // where each process running it would make two.
      const from = Date.now();
      const [a0, b0] = await runs('retention');
      const [due0] = await runs('due-work');
      await eventually(async () => expect((await runs('due-work'))[0]).to.be.at.least(due0 + 15), 60_000);
      const [a1, b1] = await runs('retention');
      const intervals = Math.ceil((Date.now() - from) / RETENTION_EVERY_MS);
      expect(a1 - a0 + (b1 - b0)).to.be.within(2, intervals + 1);
      const connection = await mongoose.createConnection(stack.mongo.uri, { dbName: stack.dbName }).asPromise();
      try {
        const lease = await createModels(connection).TaskLease.findById('retention').lean().orFail();
        expect(lease.nextAt.getTime()).to.be.greaterThan(Date.now() - 5 * RETENTION_EVERY_MS);
      } finally {
        await connection.close();
      }
    });
  });
});
