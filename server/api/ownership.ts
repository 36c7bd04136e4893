/**
 * The one check every route taking an id makes first: the object exists and belongs to the caller's
 * account. Another account's object answers exactly like a missing one (404), so ids reveal nothing.
 */
import { type HydratedDocument, isValidObjectId, type Model, type Types } from 'mongoose';
import { NotFoundError } from '../errors';

export async function findOwned<T extends { accountId: Types.ObjectId }>(
  model: Model<T>,
  id: string,
  accountId: Types.ObjectId,
): Promise<HydratedDocument<T>> {
  const notFound = () => new NotFoundError(`${model.modelName} not found`);
  if (typeof id !== 'string' || !/^[0-9a-f]{24}$/i.test(id) || !isValidObjectId(id)) throw notFound();
  const found = await model.findById(id).where('accountId').equals(accountId);
  if (!found) throw notFound();
  return found;
}
