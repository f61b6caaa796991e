// Plain-language descriptions of the scopes of api-contract §5, shown on the
// consent screen. `sensitive` marks permissions worth a second look.
// (No imports: the server tests import this file to check it covers every scope.)

export interface ScopeDescription {
  title: string;
  detail: string;
  sensitive?: boolean;
}

export const SCOPE_DESCRIPTIONS: Readonly<Record<string, ScopeDescription>> = {
  openid: { title: 'Confirm who you are', detail: 'Sign you in with your Cirrus account and learn your user ID.' },
  profile: { title: 'See your name', detail: 'Read your display name and basic profile details.' },
  email: { title: 'See your e-mail address', detail: 'Read the e-mail address of your account.' },
  offline_access: {
    title: 'Stay connected',
    detail: 'Keep access while you are not using the app, until you disconnect it in your settings.',
  },
  'UserInfo.Read': { title: 'See your account details', detail: 'Read your name, e-mail address, group and when you joined.' },
  'UserInfo.Write': { title: 'Change your account details', detail: 'Change your display name and other profile details.' },
  'UserSecurityInfo.Read': {
    title: 'See your security settings',
    detail: 'See whether two-step verification is on and which apps you have connected.',
  },
  'UserSecurityInfo.Write': {
    title: 'Change your security settings',
    detail: 'Change your password, turn two-step verification on or off, and disconnect apps.',
    sensitive: true,
  },
  'Workflow.Read': { title: 'See your background tasks', detail: 'See tasks such as compressing, extracting or importing files, and their progress.' },
  'Workflow.Write': { title: 'Run background tasks', detail: 'Start and cancel tasks such as compressing, extracting or importing files.' },
  'Admin.Read': {
    title: 'See site administration data',
    detail: 'Read every user, group, app and setting of this Cirrus site (only if you are an administrator).',
    sensitive: true,
  },
  'Admin.Write': {
    title: 'Administer this site',
    detail: 'Create, change and delete users, groups, apps and settings of this Cirrus site (only if you are an administrator).',
    sensitive: true,
  },
  'Files.Read': { title: 'See your files', detail: 'List, open and download your files and folders.' },
  'Files.Write': { title: 'Change your files', detail: 'Upload, create, rename, move and delete your files and folders.' },
  'Shares.Read': { title: 'See your shared links', detail: 'List the links you have created to share files.' },
  'Shares.Write': { title: 'Manage your shared links', detail: 'Create, change and delete links that share your files with others.' },
  'Finance.Read': { title: 'See your plan and payments', detail: 'Read your storage plan, credit and payment history.' },
  'Finance.Write': { title: 'Make payments', detail: 'Buy storage or plans and manage payments on your behalf.', sensitive: true },
  'DavAccount.Read': { title: 'See your WebDAV accounts', detail: 'List the WebDAV accounts you use to connect drives and sync tools.' },
  'DavAccount.Write': {
    title: 'Manage your WebDAV accounts',
    detail: 'Create, change and delete WebDAV accounts, which can reach your files.',
    sensitive: true,
  },
};

export function describeScope(scope: string): ScopeDescription {
  return SCOPE_DESCRIPTIONS[scope] ?? { title: scope, detail: 'A permission this site does not know. The request will be refused.', sensitive: true };
}
