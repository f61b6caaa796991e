// cloud/capabilities (api-contract §14): what the clients look for before
// they sync: the server version, the WebDAV root, chunking, trash and
// versions, checksums, and sharing as the site's settings allow it.
import { NEXTCLOUD_VERSION, type SyncService } from '../service.js';
import type { OcsValue } from './envelope.js';

/** Seconds between the clients' polls of the server for remote changes. */
const POLL_INTERVAL_S = 30;

export async function capabilities(sync: Pick<SyncService, 'siteName' | 'sharingEnabled'>): Promise<OcsValue> {
  const [major, minor, micro] = NEXTCLOUD_VERSION;
  const sharing = await sync.sharingEnabled();
  return {
    version: { major, minor, micro, string: `${major}.${minor}.${micro}`, edition: '', extendedSupport: false },
    capabilities: {
      core: { pollinterval: POLL_INTERVAL_S, 'webdav-root': 'remote.php/webdav', 'reference-api': false },
      // Chunked uploads under /remote.php/dav/uploads/ (upload-routes.ts).
      dav: { chunking: '1.0' },
      files: { bigfilechunking: true, undelete: true, versioning: true, blacklisted_files: ['.htaccess'], comments: false },
      checksums: { supportedTypes: ['SHA1', 'MD5', 'ADLER32'], preferredUploadType: 'SHA1' },
      files_sharing: {
        api_enabled: sharing,
        public: { enabled: sharing, password: { enforced: false }, expire_date: { enabled: true } },
        user: { send_mail: false },
        resharing: false,
        group_sharing: sharing,
      },
      theming: { name: await sync.siteName(), url: '', slogan: '', color: '#0082c9' },
    },
  };
}
