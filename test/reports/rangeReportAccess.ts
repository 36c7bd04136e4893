/**
 * The access and input checks every range report of one room shares (Answers, Team): 403 without a session, to a
 * member who is not an admin and on a plan without reports; 404 for another account's widget and an unknown one; 400
 * with a Message for a wrong zone, date, range or download format. Call inside the report's describe block.
 */
import { expect } from 'chai';
import { createUserInDb } from '../factories';
import type { TestServer } from '../helpers/app';
import { CUSTOM_RANGE, reportRequest, type Seeded, seedReportAccount, ZONE } from './seed';

export function rangeReportAccessSpecs(report: 'answers' | 'team', server: TestServer, seeded: () => Seeded): void {
  const custom = CUSTOM_RANGE;
  const get = (path: string, query: Record<string, string | number>, token: string | undefined = seeded().token) =>
    reportRequest(server, seeded().ceId, path, query, token);
  const download = `${report}/download`;

  it('answers 403 without a session, to a member who is not an admin, and on a plan without reports', async () => {
    await get(report, custom, '').expect(403);
    await get(download, { ...custom, format: 'csv' }, '').expect(403);
    const member = await createUserInDb(server, {
      admin: false,
      account: (await server.models.Account.findById(seeded().accountId)) ?? undefined,
    });
    expect((await get(report, custom, member.token).expect(403)).body.Message).to.equal('Reports are for account admins');
    const basic = await seedReportAccount(server, { plan: 'parley_basic_monthly' });
    const res = await reportRequest(server, basic.ceId, report, custom, basic.token).expect(403);
    expect(res.body.Message).to.match(/plan does not have access to reports/);
  });

  it('answers 404 for another account’s widget and an unknown one', async () => {
    const other = await seedReportAccount(server);
    const { token } = seeded();
    await reportRequest(server, other.ceId, report, custom, token).expect(404);
    await reportRequest(server, other.ceId, download, { ...custom, format: 'csv' }, token).expect(404);
    await reportRequest(server, 'nope', report, custom, token).expect(404);
  });

  it('answers 400 with a Message for a wrong zone, date, range or format', async () => {
    expect((await get(report, { ...custom, tz: 'Mars/Olympus' }).expect(400)).body.Message).to.match(/Unknown time zone/);
    expect((await get(report, { ...custom, startDate: '2026-03-07' }).expect(400)).body.Message).to.match(/YYYY-MM-DDTHH:mm:ss/);
    expect((await get(report, { tz: ZONE, startDate: custom.startDate }).expect(400)).body.Message).to.match(/endDate is required/);
    expect((await get(report, { ...custom, endDate: '2026-03-06T23:59:59' }).expect(400)).body.Message).to.match(/before startDate/);
    expect((await get(download, { ...custom, format: 'xlsx' }).expect(400)).body.Message).to.match(/format must be csv or json/);
  });
}
