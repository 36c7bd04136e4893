import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A help-center article of one widget. `body` is the owner's Markdown as written (or as an import turned HTML
 * into Markdown); it is rendered through server/ownerText.ts wherever it is shown, never stored as HTML. The slug
 * is unique per widget and language; the public page is /help/<widget uuid>/<slug>.
 */
export interface Article {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  title: string;
  body: string;
  language: string;
  slug: string;
  published: boolean;
  /**
   * A tag of the widget's list (ChatEndpoint `tags`) a conversation gets when this article is its answer (sent
   * automatically or from Slack); '' for none. Cleared when the widget's list drops it.
   */
  tag: string;
  createdAt: Date;
  updatedAt: Date;
}
export type ArticleDocument = HydratedDocument<Article>;

export const ArticleSchema = new Schema<Article>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
    title: { type: String, required: true },
    body: { type: String, default: '' },
    language: { type: String, required: true, default: 'en' },
    slug: { type: String, required: true },
    published: { type: Boolean, default: false },
    tag: { type: String, default: '' },
  },
  { timestamps: true },
);
ArticleSchema.index({ ceId: 1, language: 1, slug: 1 }, { unique: true });
ArticleSchema.index({ ceId: 1, updatedAt: -1 });

export type ArticleModel = Model<Article>;
export function articleModel(connection: Connection): ArticleModel {
  return (connection.models.Article as ArticleModel | undefined) ?? connection.model<Article>('Article', ArticleSchema);
}
