import { readFileSync } from 'node:fs';
import type { Channel, SandboxData, SandboxSeed, SandboxUser, Workspace } from './types';

/** What `npm start` shows without Slack: the Acme workspace, a few people (one active), a bot, three channels. */
export const defaultSeed: SandboxSeed = {
  workspaces: [
    {
      id: 'T0ACME0001',
      name: 'Acme',
      domain: 'acme',
      users: [
        {
          id: 'U0ALICE001',
          name: 'alice',
          realName: 'Alice Archer',
          email: 'alice@acme.test',
          title: 'Support lead',
          isAdmin: true,
          presence: 'active',
        },
        { id: 'U0BOB00001', name: 'bob', realName: 'Bob Baker', email: 'bob@acme.test', title: 'Support', presence: 'away' },
        { id: 'U0CAROL001', name: 'carol', realName: 'Carol Chen', email: 'carol@acme.test', title: 'Sales', presence: 'away' },
        { id: 'U0HELPER01', name: 'helperbot', realName: 'Helper Bot', isBot: true, presence: 'active' },
      ],
      channels: [
        {
          id: 'C0GENERAL1',
          name: 'general',
          isGeneral: true,
          topic: 'Company-wide announcements',
          purpose: 'This channel is for workspace-wide communication.',
        },
        { id: 'C0RANDOM01', name: 'random', purpose: 'Non-work banter and water cooler conversation.' },
        { id: 'C0SUPPORT1', name: 'support', topic: 'Customer questions', purpose: 'Where the team answers customers.' },
      ],
    },
  ],
};

/** Reads a seed given as an object or a JSON file path. */
export function readSeed(seed: SandboxSeed | string | undefined): SandboxSeed {
  if (!seed) return defaultSeed;
  if (typeof seed === 'string') return JSON.parse(readFileSync(seed, 'utf8')) as SandboxSeed;
  return seed;
}

const PALETTE = ['#4a154b', '#2eb67d', '#e01e5a', '#36c5f0', '#ecb22e', '#1264a3'];

/** An avatar that needs no network: an SVG data URL with the person's initials. */
function initialsAvatar(realName: string, index: number): string {
  const initials = realName
    .split(/\s+/)
    .map((p) => p[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const colour = PALETTE[index % PALETTE.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72"><rect width="72" height="72" rx="8" fill="${colour}"/><text x="36" y="46" font-family="Arial,sans-serif" font-size="28" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Turns a seed into the sandbox's initial state; `baseUrl` gives workspace URLs that resolve to the operator page. */
export function buildData(seed: SandboxSeed, baseUrl: string): SandboxData {
  const data: SandboxData = {
    workspaces: [],
    users: [],
    channels: [],
    messages: [],
    ephemerals: [],
    files: [],
    views: [],
    installations: [],
    revokedTokens: [],
    responses: [],
    counter: 0,
  };
  let n = 0;
  const gen = (prefix: string) => `${prefix}0SEED${String(++n).padStart(4, '0')}`;
  const created = Math.floor(Date.now() / 1000) - 86400 * 30;
  for (const ws of seed.workspaces) {
    const teamId = ws.id ?? gen('T');
    const workspace: Workspace = { id: teamId, name: ws.name, domain: ws.domain, url: ws.url ?? `${baseUrl}/workspaces/${ws.domain}/` };
    data.workspaces.push(workspace);
    const users: SandboxUser[] = ws.users.map((u, i) => ({
      id: u.id ?? gen('U'),
      teamId,
      name: u.name,
      realName: u.realName,
      displayName: u.realName.split(' ')[0],
      email: u.email,
      title: u.title,
      image: u.image ?? initialsAvatar(u.realName, i),
      isBot: u.isBot ?? false,
      botId: u.isBot ? gen('B') : undefined,
      isAdmin: u.isAdmin ?? false,
      presence: u.presence ?? 'away',
      tz: 'Europe/London',
    }));
    data.users.push(...users);
    const humans = users.filter((u) => !u.isBot);
    const creator = (users.find((u) => u.isAdmin) ?? humans[0])?.id ?? '';
    for (const c of ws.channels) {
      const members = c.members
        ? c.members.map((m) => users.find((u) => u.id === m || u.name === m)?.id).filter((x): x is string => !!x)
        : humans.map((u) => u.id);
      const channel: Channel = {
        id: c.id ?? gen('C'),
        teamId,
        name: c.name,
        created,
        creator,
        isArchived: c.isArchived ?? false,
        isGeneral: c.isGeneral ?? false,
        isPrivate: false,
        members,
        topic: { value: c.topic ?? '', creator: c.topic ? creator : '', last_set: c.topic ? created : 0 },
        purpose: { value: c.purpose ?? '', creator: c.purpose ? creator : '', last_set: c.purpose ? created : 0 },
        previousNames: [],
      };
      data.channels.push(channel);
    }
  }
  return data;
}
