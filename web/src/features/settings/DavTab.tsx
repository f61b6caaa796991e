// WebDAV accounts: the section is the WebDAV feature's own component (dav/).
import { DavAccounts } from './dav/DavAccounts';

export default function DavTab() {
  return <DavAccounts />;
}
