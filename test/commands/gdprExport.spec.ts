import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import {
  exportFile,
  type GdprExportDeps,
  presentExport,
  signedExportUrl,
  startGdprExport,
  sweepExports,
  verifyExportLink,
} from '../../server/commands/gdprExport';
import { ValidationError } from '../../server/errors';
import { TEAM_MESSAGES } from '../../server/shared/teamMessages';
import { createUserInDb } from '../factories';
import { unzip } from '../helpers/zip';
import { useStore } from './helpers';

describe('gdprExport', () => {
  const store = useStore();
  const errors: unknown[] = [];
  const deps = (): GdprExportDeps => ({
    models: store.models,
    mailer: store.mailer,
    publicUrl: 'https://parley.example',
    secret: 'export-secret',
    dataDir: store.dataDir,
    logger: { error: (...args: unknown[]) => errors.push(args) },
  });

  it("archives the account's data without password hashes, one export at a time, and mails a signed link", async () => {
    const { user } = await createUserInDb(store);
    const { job, built } = await startGdprExport(deps(), user);
    const second = await startGdprExport(deps(), user).catch((e: unknown) => e);
    expect(second).to.be.instanceOf(ValidationError);
    expect((second as Error).message).to.equal(TEAM_MESSAGES.exportRunning);
    await built;
    expect(errors).to.deep.equal([]);
    const done = await store.models.GdprExport.findById(job._id);
    expect(done?.status).to.equal('ready');
    const files = await unzip(await readFile(exportFile(store.dataDir, job._id)));
    expect(files.get('users.jsonl')).to.include(user.email);
    expect(files.get('users.jsonl')).to.not.include('passwordHash');
    expect(files.get('users.jsonl')).to.not.include('$argon2');
    if (!done) throw new Error('gone');
    const view = presentExport(deps(), done);
    expect(view.url).to.match(/^https:\/\/parley\.example\/v1\/p\/gdpr-exports\/[0-9a-f]{24}\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect((await store.mailer.outbox.latestTo(user.email))?.links.join(' ') ?? '').to.include('/v1/p/gdpr-exports/');
  });

  it('accepts only its own unexpired signature on a link', () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const url = new URL(signedExportUrl(deps(), 'abc', expiresAt));
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    expect(verifyExportLink('export-secret', 'abc', expires, signature)).to.equal(true);
    expect(verifyExportLink('export-secret', 'abd', expires, signature)).to.equal(false);
    expect(verifyExportLink('other-secret', 'abc', expires, signature)).to.equal(false);
    expect(verifyExportLink('export-secret', 'abc', expires, signature, expiresAt.getTime() + 1000)).to.equal(false);
    expect(verifyExportLink('export-secret', 'abc', `${expires}0`, signature)).to.equal(false);
    expect(verifyExportLink('export-secret', 'abc', expires, 'zz')).to.equal(false);
  });

  it('sweeps expired archives (the link then shows nothing) and exports whose process died', async () => {
    const { user } = await createUserInDb(store);
    const { job, built } = await startGdprExport(deps(), user);
    await built;
    await store.models.GdprExport.updateOne({ _id: job._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const dead = await store.models.GdprExport.create({ accountId: user.accountId, requestedBy: user._id, status: 'running' });
    await store.models.GdprExport.collection.updateOne({ _id: dead._id }, { $set: { updatedAt: new Date(Date.now() - 3600_000) } });
    await sweepExports(deps());
    expect((await store.models.GdprExport.findById(job._id))?.status).to.equal('failed');
    expect((await store.models.GdprExport.findById(dead._id))?.status).to.equal('failed');
    const gone = await readFile(exportFile(store.dataDir, job._id)).catch((e: NodeJS.ErrnoException) => e.code);
    expect(gone).to.equal('ENOENT');
  });
});
