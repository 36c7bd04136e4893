import { expect } from 'chai';
import type { CurrentUser } from '../../server/shared';
import { TERMS_VERSION } from '../../server/shared/constants';
import {
  cutName,
  firstChatEndpoint,
  isPublicRoute,
  sidebarFor,
  signedInRedirect,
  signUpErrorFrom,
  stepOf,
  takeAuthTokenFromUrl,
  teamChatSignUpHref,
} from '../../web/console/lib/rules';

type SidebarUser = Pick<CurrentUser, 'admin' | 'ces' | 'account'>;

function userWith(overrides: { admin?: boolean; reports?: boolean; ces?: { Id: string; Step: number; RoomName: string }[] }) {
  return {
    admin: overrides.admin ?? true,
    account: { effectivePlan: { reports: overrides.reports ?? false } },
    ces: overrides.ces ?? [],
  } as unknown as SidebarUser;
}

describe('console routing rules', () => {
  it('treats only login, forgotpwd, reset_password and signup as public', () => {
    for (const path of ['/login', '/forgotpwd', '/reset_password', '/signup', '/signup/']) {
      expect(isPublicRoute(path), path).to.equal(true);
    }
    for (const path of ['/', '/legal', '/support', '/setup/1', '/account', '/error/x']) {
      expect(isPublicRoute(path), path).to.equal(false);
    }
  });

  it('sends a user with another accepted terms version to /legal, except from /legal itself', () => {
    expect(signedInRedirect({ ActiveTOSPP: '01JAN2019', admin: true }, '/support')).to.equal('/legal');
    expect(signedInRedirect({ ActiveTOSPP: '', admin: true }, '/')).to.equal('/legal');
    expect(signedInRedirect({ ActiveTOSPP: '', admin: true }, '/legal')).to.equal(null);
    expect(signedInRedirect({ ActiveTOSPP: TERMS_VERSION, admin: true }, '/support')).to.equal(null);
  });

  it('shows report pages to admins only and sends others to the dashboard', () => {
    expect(signedInRedirect({ ActiveTOSPP: TERMS_VERSION, admin: false }, '/reports/history')).to.equal('/');
    expect(signedInRedirect({ ActiveTOSPP: TERMS_VERSION, admin: true }, '/reports/history')).to.equal(null);
  });

  it('picks the widget with the lowest Id as the current one when the route names none', () => {
    const ces = [{ Id: '65a000000000000000000003' }, { Id: '65a000000000000000000001' }, { Id: '65a000000000000000000002' }];
    expect(firstChatEndpoint(ces)?.Id).to.equal('65a000000000000000000001');
    expect(firstChatEndpoint([{ Id: '10' }, { Id: '9' }])?.Id).to.equal('9');
    expect(firstChatEndpoint([])).to.equal(undefined);
  });

  it('reads Step given as a number or as text, missing or below 2 meaning step 1', () => {
    expect(stepOf({ Step: undefined })).to.equal(1);
    expect(stepOf({ Step: 0 })).to.equal(1);
    expect(stepOf({ Step: '2' })).to.equal(2);
    expect(stepOf({ Step: 3 })).to.equal(3);
    expect(stepOf({ Step: 'three' })).to.equal(1);
  });

  it('takes an auth_token from the query string or from the query after the hash, and points at setup', () => {
    const fromSearch = takeAuthTokenFromUrl('https://parley.example/app/?auth_token=abc.def#/');
    expect(fromSearch).to.deep.equal({ token: 'abc.def', cleanHref: 'https://parley.example/app/#/setup' });
    const fromHash = takeAuthTokenFromUrl('https://parley.example/app/#/?auth_token=xyz');
    expect(fromHash?.token).to.equal('xyz');
    expect(fromHash?.cleanHref).to.equal('https://parley.example/app/#/setup');
    expect(takeAuthTokenFromUrl('https://parley.example/app/#/login')).to.equal(null);
    const toWidget = takeAuthTokenFromUrl('https://parley.example/app/?auth_token=t#/setup/65a0000000000000000000aa');
    expect(toWidget?.cleanHref).to.equal('https://parley.example/app/#/setup/65a0000000000000000000aa');
  });

  it('reads the sign-up error value: user_exists, anything else unknown, nothing none', () => {
    expect(signUpErrorFrom('user_exists')).to.deep.equal({ kind: 'user_exists' });
    expect(signUpErrorFrom('boom')).to.deep.equal({ kind: 'unknown' });
    expect(signUpErrorFrom(null)).to.equal(null);
  });

  it('links the team chat sign-up with the optional source', () => {
    expect(teamChatSignUpHref(null)).to.equal('/slack/oauth/signup');
    expect(teamChatSignUpHref('pricing page')).to.equal('/slack/oauth/signup?source=pricing%20page');
  });
});

describe('console sidebar rules', () => {
  it('cuts widget names longer than 15 characters with an ellipsis', () => {
    expect(cutName('support-emea-weekend')).to.equal('support-emea-we…');
    expect(cutName('exactly15chars!')).to.equal('exactly15chars!');
  });

  it('lists configured widgets under Settings only when the user has more than one widget', () => {
    const one = userWith({ ces: [{ Id: '1', Step: 3, RoomName: 'support' }] });
    expect(sidebarFor(one).settingsWidgets).to.deep.equal([]);

    const three = userWith({
      ces: [
        { Id: '2', Step: 3, RoomName: 'sales-and-partnerships' },
        { Id: '1', Step: 3, RoomName: 'support' },
        { Id: '3', Step: 2, RoomName: '' },
      ],
    });
    expect(sidebarFor(three).settingsWidgets).to.deep.equal([
      { id: '1', label: '#support' },
      { id: '2', label: '#sales-and-partn…' },
    ]);
  });

  it('shows Account to admins only, and Reports to admins whose plan that applies now (during the trial, the trial plan) has reports', () => {
    expect(sidebarFor(userWith({ admin: false, reports: true }))).to.include({ account: false, reports: false });
    expect(sidebarFor(userWith({ admin: true, reports: false }))).to.include({ account: true, reports: false });
    expect(sidebarFor(userWith({ admin: true, reports: true }))).to.include({ account: true, reports: true });
  });
});
