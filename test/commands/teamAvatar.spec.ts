import { expect } from 'chai';
import { imageTypeOf, removeTeamAvatar, setTeamAvatar } from '../../server/commands/teamAvatar';
import { type SettingsDeps, updateWidgetSettings } from '../../server/commands/updateWidgetSettings';
import type { ValidationError } from '../../server/errors';
import { TEAM_AVATAR_MAX_BYTES } from '../../server/shared/settings';
import { createUserInDb } from '../factories';
import { recordingSettingsDeps, useStore } from './helpers';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('teamAvatar', () => {
  const store = useStore();
  const deps = () => ({ ...(recordingSettingsDeps(store.models).deps as unknown as SettingsDeps), publicUrl: 'https://parley.example' });
  const widget = async () => {
    const { user } = await createUserInDb(store);
    const ce = await store.models.ChatEndpoint.findOne({ accountId: user.accountId });
    if (!ce) throw new Error('no widget');
    return ce;
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as ValidationError,
    );

  it('tells image types by their first bytes, not by name', () => {
    expect(imageTypeOf(PNG)).to.equal('image/png');
    expect(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).to.equal('image/jpeg');
    expect(imageTypeOf(Buffer.from('GIF89a'))).to.equal('image/gif');
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).to.equal('image/webp');
    expect(imageTypeOf(Buffer.from('<svg onload="alert(1)"/>'))).to.equal(null);
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WAVE'))).to.equal(null);
  });

  it('stores an image as the widget’s public avatar and replaces (deletes) the previous one', async () => {
    const ce = await widget();
    const first = await setTeamAvatar(deps(), ce, { name: 'logo.png', bytes: PNG });
    expect(first.teamAvatarUrl).to.match(/^https:\/\/parley\.example\/widget\/team-avatar\/[0-9a-f]{24}$/);
    const firstUrl = first.teamAvatarUrl;
    const firstId = firstUrl.split('/').at(-1);
    const second = await setTeamAvatar(deps(), first, { name: 'new.png', bytes: PNG });
    expect(second.teamAvatarUrl).to.not.equal(firstUrl);
    expect(await store.models.WidgetFile.exists({ _id: firstId })).to.equal(null);
    const stored = await store.models.WidgetFile.findById(second.teamAvatarUrl.split('/').at(-1));
    expect(stored).to.deep.include({ source: 'team-avatar', mimetype: 'image/png', name: 'new.png', size: PNG.length });
  });

  it('refuses an empty file, one too large and one that is not an image, and keeps the avatar', async () => {
    const ce = await widget();
    const d = deps();
    expect((await refusal(setTeamAvatar(d, ce, { name: 'a.png', bytes: new Uint8Array() })))?.message).to.equal(
      'Choose an image to upload.',
    );
    const big = new Uint8Array(TEAM_AVATAR_MAX_BYTES + 1);
    big.set(PNG);
    expect((await refusal(setTeamAvatar(d, ce, { name: 'a.png', bytes: big })))?.message).to.match(
      /^The team avatar must be at most \d+ MB\.$/,
    );
    expect((await refusal(setTeamAvatar(d, ce, { name: 'a.png', bytes: Buffer.from('<svg/>') })))?.message).to.equal(
      'The team avatar must be a PNG, JPEG, GIF or WebP image.',
    );
    expect(await store.models.WidgetFile.countDocuments({ ceId: ce._id })).to.equal(0);
  });

  it('removes the avatar and its file, but not while a setting shows it', async () => {
    const ce = await widget();
    const d = deps();
    const withAvatar = await setTeamAvatar(d, ce, { name: 'logo.png', bytes: PNG });
    const shown = await updateWidgetSettings(d, withAvatar, { teamAvatarOn: true });
    const refused = await refusal(removeTeamAvatar(d, shown));
    expect(refused?.code).to.equal('team_avatar_in_use');
    const hidden = await updateWidgetSettings(d, shown, { teamAvatarOn: false });
    const removed = await removeTeamAvatar(d, hidden);
    expect(removed.teamAvatarUrl).to.equal('');
    expect(await store.models.WidgetFile.countDocuments({ ceId: ce._id })).to.equal(0);
  });
});
