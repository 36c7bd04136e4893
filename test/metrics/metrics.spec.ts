import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { WEBHOOK_PATH } from '../../server/billing';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { parsePrometheus, sampleValue } from '../helpers/prometheus';
import {
  ACME,
  ALICE,
  eventually,
  FAST_RELAY,
  type SetUp,
  say,
  setUpRelayWidget,
  threadOf,
  useRelayServer,
  VisitorSocket,
} from '../relay/helpers';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;

describe('GET /metrics', () => {
  describe('with METRICS_TOKEN set', () => {
    const server = useRelayServer({ metricsToken: TOKEN });
    const scrape = async () => {
      const res = await request(server.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
      return { text: res.text, ...parsePrometheus(res.text) };
    };

    describe('asked without the token', () => {
      it('answers 401 without the token or with another one, and says nothing of the figures', async () => {
        const bare = await request(server.url).get('/metrics').expect(401);
        expect(bare.headers['www-authenticate']).to.match(/^Bearer/);
        expect(bare.text).not.to.contain('parley_');
        await request(server.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
        await request(server.url).get('/metrics').set('Authorization', TOKEN).expect(401);
      });
    });

    describe('after a chat was relayed both ways', () => {
      let widget: SetUp;
      let socket: VisitorSocket;
      before(async () => {
        widget = await setUpRelayWidget(server);
        ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
        await say(socket, 'Hello, is anyone there?');
        const threadTs = await threadOf(server, widget.ceId);
        await eventually(async () =>
          expect(await server.models.Message.countDocuments({ from: 'visitor', slackTs: { $ne: '' } })).to.equal(1),
        );
        await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Yes, how can I help?' });
        await socket.next('msg', (f) => f.message.from === 'operator');
      });
      after(() => socket.close());

      it("counts the visitor's message, the operator's answer and the conversation", async () => {
        const { samples } = await scrape();
        expect(sampleValue(samples, 'parley_visitor_messages_total')).to.equal(1);
        expect(sampleValue(samples, 'parley_operator_messages_total')).to.equal(1);
        expect(sampleValue(samples, 'parley_conversations_started_total')).to.equal(1);
        expect(sampleValue(samples, 'parley_ws_connections')).to.equal(1);
      });

      it('times the ack and the Slack post in histogram buckets', async () => {
        const { samples, families } = await scrape();
        expect(families.get('parley_relay_ack_seconds')).to.equal('histogram');
        expect(families.get('parley_slack_post_seconds')).to.equal('histogram');
        expect(sampleValue(samples, 'parley_relay_ack_seconds_count')).to.equal(1);
        expect(sampleValue(samples, 'parley_relay_ack_seconds_bucket', { le: '+Inf' })).to.equal(1);
        expect(sampleValue(samples, 'parley_relay_ack_seconds_bucket', { le: '0.001' })).to.be.a('number');
        expect(sampleValue(samples, 'parley_slack_post_seconds_count')).to.equal(1);
        expect(sampleValue(samples, 'parley_slack_post_seconds_bucket', { le: '60' })).to.equal(1);
        expect(sampleValue(samples, 'parley_slack_post_seconds_sum')).to.be.greaterThan(0).and.lessThan(60);
      });

      it('counts Slack Web API calls by method and outcome, and the outbox drained (no job, oldest age 0)', async () => {
        const { samples, families } = await scrape();
        expect(sampleValue(samples, 'parley_slack_api_calls_total', { method: 'chat.postMessage', outcome: 'ok' })).to.be.at.least(2);
        expect(sampleValue(samples, 'parley_slack_api_calls_total', { method: 'conversations.create', outcome: 'ok' })).to.equal(1);
        expect(families.get('parley_outbox_jobs')).to.equal('gauge');
        // The thread's header update after the answer may still be on its way.
        await eventually(async () => expect(sampleValue((await scrape()).samples, 'parley_outbox_oldest_job_age_seconds')).to.equal(0));
      });

      it('times HTTP requests by route template, never by raw path', async () => {
        await request(server.url)
          .get(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
          .set('Authorization', `Bearer ${widget.token}`)
          .expect(200);
        const { samples, text } = await scrape();
        expect(
          sampleValue(samples, 'parley_http_request_seconds_count', { route: '/v1/chat_endpoints/:id/saved_replies', status: '200' }),
        ).to.be.at.least(1);
        expect(sampleValue(samples, 'parley_http_request_seconds_count', { route: '/slack/events', status: '200' })).to.be.at.least(1);
        expect(text).not.to.contain(widget.ceId);
        expect(text).not.to.contain(widget.channel);
      });

      it("serves the process's own figures: event-loop lag, heap, GC", async () => {
        const { families } = await scrape();
        expect(families.get('nodejs_eventloop_lag_seconds')).to.equal('gauge');
        expect(families.get('nodejs_heap_size_used_bytes')).to.equal('gauge');
        expect(families.get('nodejs_gc_duration_seconds')).to.equal('histogram');
      });
    });

    describe('mails and Stripe', () => {
      it('counts mails by kind and Stripe webhooks by type and outcome', async () => {
        const user = await signUpUser(server);
        await request(server.url).post('/v1/p/users/password_reset_email').send({ email: user.email }).expect(200);
        await request(server.url).post(WEBHOOK_PATH).set('stripe-signature', 't=1,v1=forged').type('json').send('{}').expect(400);
        await eventually(async () => {
          const { samples } = await scrape();
          expect(sampleValue(samples, 'parley_emails_sent_total', { kind: 'password_reset' })).to.equal(1);
          expect(sampleValue(samples, 'parley_stripe_webhooks_total', { type: 'unknown', outcome: 'invalid_signature' })).to.equal(1);
        });
        // The sign-up put the trial in the Stripe sandbox, which told Parley about it.
        await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
        await eventually(async () => {
          const { samples } = await scrape();
          const processed = samples.filter((s) => s.name === 'parley_stripe_webhooks_total' && s.labels.outcome === 'processed');
          expect(processed.map((s) => s.labels.type)).to.include('customer.subscription.created');
        });
      });
    });

    describe('while Slack fails', () => {
      it("counts outbox jobs by kind and state while Slack fails, with the oldest one's age and the failed calls", async () => {
        const widget = await setUpRelayWidget(server);
        const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Ann' } });
        try {
          server.slack.state.failNext('chat.postMessage', 1_000_000, 503);
          await say(socket, 'Slack is down, is it?');
          await eventually(async () => {
            const { samples } = await scrape();
            const waiting = samples.filter((s) => s.name === 'parley_outbox_jobs' && s.labels.kind === 'slack.header');
            expect(waiting.map((s) => s.labels.state)).to.satisfy((states: string[]) =>
              states.some((s) => s === 'retrying' || s === 'running'),
            );
            expect(sampleValue(samples, 'parley_outbox_oldest_job_age_seconds')).to.be.greaterThan(0);
            expect(
              sampleValue(samples, 'parley_slack_api_calls_total', { method: 'chat.postMessage', outcome: 'http_503' }),
            ).to.be.at.least(1);
          });
        } finally {
          server.slack.state.clearFaults();
          socket.close();
        }
        await eventually(async () => expect(await server.models.OutboxJob.countDocuments({})).to.equal(0));
      });
    });
  });

  describe('the Grafana dashboard and the Prometheus configuration in docs/', () => {
    const server = useServer({ metricsToken: TOKEN });
    const ROOT = path.resolve(__dirname, '..', '..');
    /** Metric names in a PromQL expression (a histogram's _bucket, _sum and _count series belong to its family). */
    const metricsIn = (expr: string) => [...expr.matchAll(/\b((?:parley|nodejs|process)_[a-z0-9_]+)\b/g)].map((m) => m[1]);
    const familyOf = (name: string, families: Map<string, string>) =>
      families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    const yamlBlocks = () =>
      [...readFileSync(path.join(ROOT, 'docs', 'self-hosting.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
        (m) => parseYaml(m[1]) as Record<string, unknown>,
      );
    const exposed = async () => {
      const res = await request(server.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      return parsePrometheus(res.text).families;
    };

    it("uses only metrics Parley exposes, shows every one of Parley's own, on a Prometheus data source", async () => {
      const families = await exposed();
      const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
        title: string;
        panels: { type: string; title: string; datasource?: { type: string }; targets?: { expr: string }[] }[];
      };
      expect(dashboard.title).to.equal('Parley');
      const panels = dashboard.panels.filter((p) => p.type !== 'row');
      expect(panels.length).to.be.greaterThan(10);
      const used = new Set<string>();
      for (const panel of panels) {
        expect(panel.datasource?.type, panel.title).to.equal('prometheus');
        expect(panel.targets ?? [], panel.title).to.have.length.greaterThan(0);
        for (const { expr } of panel.targets ?? []) {
          expect(metricsIn(expr), `${panel.title}: ${expr}`).to.have.length.greaterThan(0);
          for (const name of metricsIn(expr)) {
            expect(families.has(familyOf(name, families)), `${panel.title} uses ${name}, which Parley does not expose`).to.equal(true);
            used.add(familyOf(name, families));
          }
        }
      }
      // Every metric of Parley's own is on the dashboard.
      for (const family of families.keys())
        if (family.startsWith('parley_')) expect(used.has(family), `${family} is on no panel`).to.equal(true);
    });

    it('shows a scrape job with the bearer token, and alert rules on exposed metrics (outbox age, Slack failures, ack p99)', async () => {
      const families = await exposed();
      const [scrape, rules] = yamlBlocks();
      const job = (scrape.scrape_configs as { job_name: string; metrics_path: string; authorization: { type: string } }[])[0];
      expect(job).to.include({ job_name: 'parley', metrics_path: '/metrics' });
      expect(job.authorization.type).to.equal('Bearer');
      const alerts = (rules.groups as { rules: { alert: string; expr: string }[] }[])[0].rules;
      const exprs = alerts.map((r) => r.expr).join('\n');
      for (const needed of ['parley_outbox_oldest_job_age_seconds', 'parley_slack_api_calls_total', 'parley_relay_ack_seconds_bucket']) {
        expect(exprs).to.contain(needed);
      }
      for (const rule of alerts) {
        for (const name of metricsIn(rule.expr)) {
          expect(families.has(familyOf(name, families)), `${rule.alert} uses ${name}, which Parley does not expose`).to.equal(true);
        }
      }
    });
  });

  describe('without METRICS_TOKEN', () => {
    const server = useServer({ relay: FAST_RELAY });
    it('does not exist: 404, with or without a token', async () => {
      await request(server.url).get('/metrics').expect(404);
      await request(server.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
    });
  });
});
