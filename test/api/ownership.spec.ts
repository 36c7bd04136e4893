import { expect } from 'chai';
import { findOwned } from '../../server/api/ownership';
import { NotFoundError } from '../../server/errors';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';

describe('findOwned (the shared tenant check of routes taking an id)', () => {
  const server = useServer();

  async function rejection(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error('expected a rejection');
  }

  it("finds a widget of the caller's account", async () => {
    const { user } = await createUserInDb(server);
    const [ce] = await server.models.ChatEndpoint.find({ accountId: user.accountId });
    const found = await findOwned(server.models.ChatEndpoint, ce?.id as string, user.accountId);
    expect(found.Uuid).to.equal(ce?.Uuid);
  });

  it("answers 404 for another account's widget, exactly as for one that does not exist", async () => {
    const mine = await createUserInDb(server);
    const theirs = await createUserInDb(server);
    const [theirCe] = await server.models.ChatEndpoint.find({ accountId: theirs.user.accountId });
    const foreign = await rejection(findOwned(server.models.ChatEndpoint, theirCe?.id as string, mine.user.accountId));
    const missing = await rejection(findOwned(server.models.ChatEndpoint, 'f'.repeat(24), mine.user.accountId));
    expect(foreign).to.be.instanceOf(NotFoundError);
    expect(missing).to.be.instanceOf(NotFoundError);
    expect((foreign as NotFoundError).message).to.equal((missing as NotFoundError).message);
  });

  it('answers 404 for ids that are not ids at all', async () => {
    const { user } = await createUserInDb(server);
    for (const id of ['', '1', 'x'.repeat(24), '{"$ne":null}', 'a'.repeat(5000)]) {
      expect(await rejection(findOwned(server.models.ChatEndpoint, id, user.accountId)), id).to.be.instanceOf(NotFoundError);
    }
  });
});
