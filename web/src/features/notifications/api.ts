// Notifications (docs/api.md "Notifications"; docs/features/notifications.md).
import { api, data } from '../../api/client';
import type { components } from '../../api/generated/schema';

export type Notification = components['schemas']['Notification'];
export type NotificationPreferences = components['schemas']['NotificationPreferences'];
export type NotificationKind = Notification['type'];
export type EmailMode = NotificationPreferences['shared_with_me']['email'];

export const KINDS: readonly NotificationKind[] = ['shared_with_me', 'upload_request_received', 'link_downloaded', 'quota_almost_full', 'new_device_sign_in', 'app_authorized', 'security_change'];

/** The bell's list and count; the stream (useNotificationStream) refreshes it when one arrives. */
export const notificationsQuery = { queryKey: ['notifications'], queryFn: () => data(api().GET('/api/v4/notifications', { params: { query: { limit: 30 } } })) };
export const preferencesQuery = { queryKey: ['notification-preferences'], queryFn: () => data(api().GET('/api/v4/user/setting/notifications')) };

export const markRead = (id: string, read: boolean) => data(api().PATCH('/api/v4/notifications/{id}', { params: { path: { id } }, body: { read } }));
export const markAllRead = () => data(api().POST('/api/v4/notifications/read-all'));
export const savePreferences = (body: Partial<Record<NotificationKind, { web?: boolean; email?: EmailMode }>>) => data(api().PATCH('/api/v4/user/setting/notifications', { body }));
