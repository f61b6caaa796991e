// The activity route (api-contract §17): a page of events, newest first.
import { api, data } from '../../api/client';
import type { paths } from '../../api/generated/schema';

export type ActivityPage = NonNullable<paths['/api/v4/activity']['get']['responses'][200]['content']['application/json']['data']>;
export type ActivityEvent = ActivityPage['items'][number];

export const ACTIVITY_TYPES = ['created', 'modified', 'moved', 'deleted', 'restored', 'version_restored', 'shared', 'unshared', 'link_uploaded', 'link_downloaded'] as const;

export interface ActivityQuery {
  path?: string;
  type?: string;
  since?: string;
  cursor?: string;
}

export const listActivity = (q: ActivityQuery): Promise<ActivityPage> =>
  data(api().GET('/api/v4/activity', { params: { query: { ...q, page_size: 50 } } }));
