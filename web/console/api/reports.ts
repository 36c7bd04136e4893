/** Typed calls of the reports screens (docs/reports.md, spec section 7). */
import type {
  AnswersReport,
  AvailabilityReport,
  ChatsPage,
  HistoryFilters,
  OverviewReport,
  TeamReport,
  Transcript,
} from '../../../server/shared/reports';
import { downloadName } from '../../../server/shared/reports';
import { API_BASE, ApiError, apiRequest, endSession } from './client';
import { readToken } from './token';

export type RangeParams = { tz: string; startDate: string; endDate: string };

const base = (ceId: string) => `/reports/${encodeURIComponent(ceId)}`;
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

export function fetchOverview(ceId: string, range: RangeParams): Promise<OverviewReport> {
  return apiRequest<OverviewReport>('GET', `${base(ceId)}/overview?${query(range)}`);
}

export function fetchAvailability(ceId: string, range: RangeParams): Promise<AvailabilityReport> {
  return apiRequest<AvailabilityReport>('GET', `${base(ceId)}/availability?${query(range)}`);
}

export function fetchAnswers(ceId: string, range: RangeParams): Promise<AnswersReport> {
  return apiRequest<AnswersReport>('GET', `${base(ceId)}/answers?${query(range)}`);
}

export function fetchTeam(ceId: string, range: RangeParams): Promise<TeamReport> {
  return apiRequest<TeamReport>('GET', `${base(ceId)}/team?${query(range)}`);
}

/** The History's filters as query parameters: the ones set, none of the absent or empty ones. */
export function filterParams(filters: HistoryFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/** A page of the history, newest first; `search`: only the chats found by those words; `filters`: tag, state, assignee. */
export function fetchChats(ceId: string, page: number, perPage: number, search = '', filters: HistoryFilters = {}): Promise<ChatsPage> {
  return apiRequest<ChatsPage>(
    'GET',
    `${base(ceId)}/chats?${query({ page, perPage, ...(search ? { q: search } : {}), ...filterParams(filters) })}`,
  );
}

export function fetchTranscript(ceId: string, chatId: string): Promise<Transcript> {
  return apiRequest<Transcript>('GET', `${base(ceId)}/chats/${encodeURIComponent(chatId)}`);
}

/**
 * Downloads a report file (the server streams it) and hands it to the browser named by the moment, the room and
 * the report. `kind` chats: the newest `limit` chats (the history); overview, answers and team: the figures of the range.
 */
export async function downloadReport(
  room: { Id: string; RoomName: string },
  kind: 'chats' | 'overview' | 'answers' | 'team',
  format: 'csv' | 'json',
  params: Record<string, string | number>,
): Promise<void> {
  const ceId = room.Id;
  const token = readToken();
  const response = await fetch(`${API_BASE}${base(ceId)}/${kind}/download?${query({ format, ...params })}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'same-origin',
  });
  if (response.status === 403) endSession();
  if (!response.ok) throw new ApiError('The download failed, please try again.', response.status);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(new Date(), format, kind === 'chats' ? 'history' : kind, room.RoomName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
