import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';

/** A user token of someone who authorised Parley in the workspace (the main user, usually). */
export interface InstallationUserToken {
  userId: string;
  token: string;
  scopes: string[];
  /** Set when Slack tells us the token was revoked; the row stays so the history is kept. */
  revokedAt: Date | null;
}

/**
 * Parley's installation in one Slack workspace: one per team, shared by every widget linked to it.
 * Tokens never leave the server (no presenter reads them).
 */
export interface Installation {
  teamId: string;
  teamName: string;
  /** Workspace URL as auth.test answers it, e.g. https://acme.slack.com/ */
  url: string;
  appId: string;
  botToken: string;
  botUserId: string;
  botId: string;
  botScopes: string[];
  /** The Slack user who last installed or re-authorised the app. */
  installerUserId: string;
  userTokens: InstallationUserToken[];
  /** Set by app_uninstalled or a revoked bot token; cleared by a new installation. Nothing is deleted. */
  revokedAt: Date | null;
  installedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}
export type InstallationDocument = HydratedDocument<Installation>;

const UserTokenSchema = new Schema<InstallationUserToken>(
  {
    userId: { type: String, required: true },
    token: { type: String, required: true },
    scopes: { type: [String], default: [] },
    revokedAt: { type: Date, default: null },
  },
  { _id: false },
);

export const InstallationSchema = new Schema<Installation>(
  {
    teamId: { type: String, required: true, unique: true },
    teamName: { type: String, default: '' },
    url: { type: String, default: '' },
    appId: { type: String, default: '' },
    botToken: { type: String, required: true },
    botUserId: { type: String, default: '' },
    botId: { type: String, default: '' },
    botScopes: { type: [String], default: [] },
    installerUserId: { type: String, default: '' },
    userTokens: { type: [UserTokenSchema], default: [] },
    revokedAt: { type: Date, default: null },
    installedAt: { type: Date, required: true },
  },
  { timestamps: true },
);

export type InstallationModel = Model<Installation>;
export function installationModel(connection: Connection): InstallationModel {
  return (
    (connection.models.Installation as InstallationModel | undefined) ?? connection.model<Installation>('Installation', InstallationSchema)
  );
}
