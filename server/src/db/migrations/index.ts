import type { Migration } from 'kysely';
import * as m001 from './001_foundation.js';
import * as m002 from './002_oauth.js';
import * as m003 from './003_files.js';
import * as m004 from './004_shares.js';
import * as m005 from './005_refresh_lifetimes.js';
import * as m007 from './007_upload_leases.js';
import * as m008 from './008_webdav.js';
import * as m010 from './010_web_app.js';
import * as m011 from './011_tokens_valid_after.js';
import * as m012 from './012_sorting_avatars.js';
import * as m013 from './013_dav_property_sizes.js';
import * as m014 from './014_tree_batches.js';
import * as m016 from './016_natural_names.js';
import * as m017 from './017_oauth_clients.js';
import * as m018 from './018_accounts_mail.js';
import * as m019 from './019_passkeys.js';
import * as m020 from './020_file_versions.js';
import * as m021 from './021_file_events.js';
import * as m022 from './022_file_access.js';
import * as m023 from './023_upload_requests.js';
import * as m024 from './024_dpop.js';
import * as m025 from './025_team_folders.js';
import * as m026 from './026_feed_audience.js';
import * as m027 from './027_dpop_code_binding.js';
import * as m030 from './030_sharing_hardening.js';
import * as m031 from './031_sync_clients.js';
import * as m033 from './033_content_search.js';
import * as m032 from './032_identity_providers.js';
import * as m035 from './035_version_authors.js';
import * as m036 from './036_link_upload_addresses.js';
import * as m037 from './037_audit_log.js';
import * as m038 from './038_media.js';
import * as m040 from './040_notifications.js';
import * as m041 from './041_share_strip_location.js';
import * as m042 from './042_sync_file_numbers.js';
import * as m043 from './043_activity.js';
import * as m044 from './044_activity_retention.js';
import * as m045 from './045_photo_count.js';
import * as m047 from './047_search_pending.js';
import * as m048 from './048_sync_share_numbers.js';
import * as m049 from './049_sync_spools.js';

export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_oauth': m002,
  '003_files': m003,
  '004_shares': m004,
  '005_refresh_lifetimes': m005,
  '007_upload_leases': m007,
  '008_webdav': m008,
  '010_web_app': m010,
  '011_tokens_valid_after': m011,
  '012_sorting_avatars': m012,
  '013_dav_property_sizes': m013,
  '014_tree_batches': m014,
  '016_natural_names': m016,
  '017_oauth_clients': m017,
  '018_accounts_mail': m018,
  '019_passkeys': m019,
  '020_file_versions': m020,
  '021_file_events': m021,
  '022_file_access': m022,
  '023_upload_requests': m023,
  '024_dpop': m024,
  '025_team_folders': m025,
  '026_feed_audience': m026,
  '027_dpop_code_binding': m027,
  '030_sharing_hardening': m030,
  '031_sync_clients': m031,
  '033_content_search': m033,
  '032_identity_providers': m032,
  '035_version_authors': m035,
  '036_link_upload_addresses': m036,
  '037_audit_log': m037,
  '038_media': m038,
  '040_notifications': m040,
  '041_share_strip_location': m041,
  '042_sync_file_numbers': m042,
  '043_activity': m043,
  '044_activity_retention': m044,
  '045_photo_count': m045,
  '047_search_pending': m047,
  '048_sync_share_numbers': m048,
  '049_sync_spools': m049,
};
