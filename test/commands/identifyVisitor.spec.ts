import { expect } from 'chai';
import { identifyVisitor } from '../../server/commands/identifyVisitor';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('identifyVisitor', () => {
  const store = useStore();
  const page = { url: 'https://shop.example/a', title: 'A', referrer: '' };
  const widget = async (collectVisitorMetaData: boolean) => {
    const { user } = await createUserInDb(store);
    const ce = await store.models.ChatEndpoint.findOneAndUpdate(
      { accountId: user.accountId },
      { $set: { collectVisitorMetaData } },
      { returnDocument: 'after' },
    );
    if (!ce) throw new Error('no widget');
    return ce;
  };

  it('makes a new visitor with a token of its own, kept only hashed, and knows them again by it', async () => {
    const ce = await widget(true);
    const first = await identifyVisitor(store.models, {
      ce,
      identity: { name: 'Vic' },
      page,
      userAgent: 'UA/1',
      country: 'FR',
      language: '',
    });
    expect(first.token).to.be.a('string').with.length.greaterThan(15);
    expect(JSON.stringify(await store.models.Visitor.findById(first.visitor._id).lean())).to.not.include(first.token);
    expect(first.visitor).to.deep.include({ name: 'Vic', userAgent: 'UA/1', currentPage: page.url });
    expect(first.visitor.location?.country).to.equal('FR');
    const again = await identifyVisitor(store.models, {
      ce,
      token: first.token,
      identity: { email: 'vic@visitor.test' },
      page: { url: 'https://shop.example/b', title: 'B', referrer: '' },
      userAgent: 'UA/2',
      country: '',
      language: '',
    });
    expect(String(again.visitor._id)).to.equal(String(first.visitor._id));
    expect(again.token).to.equal(first.token);
    expect(again.visitor).to.deep.include({
      name: 'Vic',
      email: 'vic@visitor.test',
      currentPage: 'https://shop.example/b',
      userAgent: 'UA/2',
    });
  });

  it("keeps no user agent or country unless the widget collects visitor data; another widget's token is a stranger", async () => {
    const ce = await widget(false);
    const { visitor, token } = await identifyVisitor(store.models, {
      ce,
      identity: undefined,
      page,
      userAgent: 'UA/1',
      country: 'FR',
      language: '',
    });
    expect(visitor.userAgent).to.equal('');
    expect(visitor.location?.country).to.equal('');
    const other = await widget(false);
    const stranger = await identifyVisitor(store.models, {
      ce: other,
      token,
      identity: undefined,
      page,
      userAgent: '',
      country: '',
      language: '',
    });
    expect(String(stranger.visitor._id)).to.not.equal(String(visitor._id));
    expect(stranger.token).to.not.equal(token);
  });
});
