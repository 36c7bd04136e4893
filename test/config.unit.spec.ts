import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../server/config';

const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://chat.example.com/',
  MONGODB_URI: 'mongodb://db.internal:27017/parley',
  SMTP_URL: 'smtps://user:pass@smtp.example.com',
  MAIL_FROM: 'Parley <hello@example.com>',
  JWT_SECRET: 'x'.repeat(48),
  SLACK_CLIENT_ID: '123.456',
  SLACK_CLIENT_SECRET: 'slack-client-secret',
  SLACK_SIGNING_SECRET: 'slack-signing-secret',
  STRIPE_SECRET_KEY: 'sk_live_abc',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
};

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs on defaults in development: port 3000, a localhost URL, embedded database, outbox mail', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.env).to.equal('development');
    expect(config.port).to.equal(3000);
    expect(config.publicUrl).to.equal('http://localhost:3000');
    expect(config.mongodbUri).to.equal(undefined);
    expect(config.mail.smtpUrl).to.equal(undefined);
    expect(config.mail.outboxDir).to.equal(path.join(dataDir, 'outbox'));
    expect(config.slack.apiUrl).to.equal('https://slack.com/api/');
  });

  it('takes the support widget and phone number, and in development only stands the first local widget in for the widget', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).support).to.deep.equal({ widgetId: undefined, firstLocalWidget: true, phone: undefined });
    expect(loadConfig({ ...PRODUCTION_ENV, DATA_DIR: dataDir }).support?.firstLocalWidget).to.equal(false);
    const given = loadConfig({ ...PRODUCTION_ENV, DATA_DIR: dataDir, SUPPORT_WIDGET_ID: 'a1b2-c3', SUPPORT_PHONE: '+1 (415) 555-0100' });
    expect(given.support).to.deep.equal({ widgetId: 'a1b2-c3', firstLocalWidget: false, phone: '+1 (415) 555-0100' });
    const bad = configError(() => loadConfig({ DATA_DIR: dataDir, SUPPORT_WIDGET_ID: '<script>', SUPPORT_PHONE: 'call us' }));
    expect(bad.problems).to.deep.equal([
      "SUPPORT_WIDGET_ID: must be a widget's id (letters, digits and dashes)",
      'SUPPORT_PHONE: must be a phone number such as +1 415 555 0100',
    ]);
  });

  it('derives the public URL from PORT when PUBLIC_URL is not set, and drops a trailing slash from it', () => {
    expect(loadConfig({ DATA_DIR: dataDir, PORT: '4100' }).publicUrl).to.equal('http://localhost:4100');
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://x.example.com/' }).publicUrl).to.equal('https://x.example.com');
  });

  it('generates missing secrets in development once and keeps them in DATA_DIR/secrets.json across restarts', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(existsSync(file)).to.equal(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).JWT_SECRET).to.equal(first.jwtSecret);
    expect(first.jwtSecret.length).to.be.greaterThan(31);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).to.equal(first.jwtSecret);
    expect(second.slack.signingSecret).to.equal(first.slack.signingSecret);
    expect(second.stripe.webhookSecret).to.equal(first.stripe.webhookSecret);
  });

  it('prefers a secret from the environment over the kept one', () => {
    loadConfig({ DATA_DIR: dataDir });
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'e'.repeat(40) });
    expect(config.jwtSecret).to.equal('e'.repeat(40));
  });

  it('gives two data directories different secrets', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'parley-config-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).not.to.equal(loadConfig({ DATA_DIR: other }).jwtSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses to start in production and lists every missing required setting at once', () => {
    const error = configError(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }));
    const missing = [
      'PUBLIC_URL',
      'MONGODB_URI',
      'SMTP_URL',
      'MAIL_FROM',
      'JWT_SECRET',
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_SECRET',
      'SLACK_SIGNING_SECRET',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ];
    for (const name of missing) expect(error.message).to.contain(name);
    expect(error.problems).to.have.length(missing.length);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).to.equal(false);
  });

  it('names only what is missing in production', () => {
    const { SMTP_URL: _smtp, JWT_SECRET: _jwt, ...rest } = PRODUCTION_ENV;
    const error = configError(() => loadConfig({ ...rest, DATA_DIR: dataDir }));
    expect(error.problems).to.deep.equal(['SMTP_URL is required in production', 'JWT_SECRET is required in production']);
  });

  it('starts in production with every setting given, and writes no secrets file', () => {
    const config = loadConfig({ ...PRODUCTION_ENV, DATA_DIR: dataDir });
    expect(config.env).to.equal('production');
    expect(config.publicUrl).to.equal('https://chat.example.com');
    expect(config.jwtSecret).to.equal('x'.repeat(48));
    expect(existsSync(path.join(dataDir, 'secrets.json'))).to.equal(false);
  });

  it('reports malformed values with the setting name', () => {
    const error = configError(() =>
      loadConfig({ DATA_DIR: dataDir, PORT: 'eighty', MONGODB_URI: 'postgres://x', SMTP_URL: 'http://mail', JWT_SECRET: 'short' }),
    );
    const text = error.problems.join('\n');
    for (const name of ['PORT', 'MONGODB_URI', 'SMTP_URL', 'JWT_SECRET']) expect(text).to.contain(name);
  });

  it('logs at info by default (warn under test) or at LOG_LEVEL, and refuses a level pino does not know', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).logLevel).to.equal('info');
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).logLevel).to.equal('warn');
    expect(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' }).logLevel).to.equal('debug');
    expect(configError(() => loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'verbose' })).problems.join('\n')).to.contain('LOG_LEVEL');
  });

  it('turns metrics on only with a METRICS_TOKEN of 16 characters or more', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).metricsToken).to.equal(undefined);
    expect(loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: 'a-long-enough-token-1234' }).metricsToken).to.equal('a-long-enough-token-1234');
    for (const bad of ['short', 'has spaces in it, sixteen+']) {
      expect(configError(() => loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: bad })).problems.join('\n')).to.contain('METRICS_TOKEN');
    }
  });

  it('believes no proxy by default, and the hops or addresses TRUST_PROXY names', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).trustProxy).to.equal(false);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '1' }).trustProxy).to.equal(1);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).to.equal('loopback, 10.0.0.0/8');
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '', MONGODB_URI: '  ', REDIS_URL: '' });
    expect(config.port).to.equal(3000);
    expect(config.mongodbUri).to.equal(undefined);
    expect(config.redisUrl).to.equal(undefined);
  });

  it('reads BACKUP_DIR, BACKUP_EVERY_HOURS and BACKUP_KEEP, and refuses the other two without BACKUP_DIR', () => {
    const env = { DATA_DIR: dataDir };
    expect(loadConfig(env).backup).to.equal(undefined);
    expect(loadConfig({ ...env, BACKUP_DIR: 'backups' }).backup).to.deep.equal({ dir: path.resolve('backups'), everyHours: 24, keep: 7 });
    expect(loadConfig({ ...env, BACKUP_DIR: '/b', BACKUP_EVERY_HOURS: '0.5', BACKUP_KEEP: '28' }).backup).to.deep.equal({
      dir: '/b',
      everyHours: 0.5,
      keep: 28,
    });
    expect(configError(() => loadConfig({ ...env, BACKUP_KEEP: '3' })).problems).to.deep.equal([
      'BACKUP_KEEP is set but BACKUP_DIR is not: set BACKUP_DIR too',
    ]);
    expect(configError(() => loadConfig({ ...env, BACKUP_DIR: '/b', BACKUP_KEEP: '0', BACKUP_EVERY_HOURS: '-1' })).problems).to.have.length(
      2,
    );
  });
});
