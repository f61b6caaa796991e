// The words of every mail, in English and Simplified Chinese. `{site}` and the
// other placeholders are filled with plain text; the templates (templates.ts)
// escape it, so whatever a user typed (a nickname, a site name) stays text.

export type MailLanguage = 'en' | 'zh-CN';

export type MailKind =
  | 'test'
  | 'reset'
  | 'activate'
  | 'verify'
  | 'email_change'
  | 'email_change_notice'
  | 'password_changed'
  | 'password_reset_done'
  | 'passkey_added'
  | 'two_factor_changed'
  | 'upload_received'
  | 'upload_infected'
  | 'shared_with_you'
  | 'link_downloaded'
  | 'quota_almost_full'
  | 'new_device_sign_in'
  | 'app_authorized'
  | 'notification_digest';

export interface MailWords {
  subject: string;
  heading: string;
  lines: string[];
  /** The button's label, for mails with a link. */
  action?: string;
  /** Under the button: what to do if it was not you. */
  footer?: string;
}

type Vars = Record<string, string>;
type Dictionary = Record<MailKind, (v: Vars) => MailWords>;

const en: Dictionary = {
  test: (v) => ({ subject: `Test message from ${v.site}`, heading: 'It works', lines: [`${v.site} can send e-mail through this SMTP server.`] }),
  reset: (v) => ({
    subject: `Reset your ${v.site} password`,
    heading: 'Reset your password',
    lines: [`Someone asked to reset the password of the ${v.site} account ${v.email}.`, 'The link works once, for one hour.'],
    action: 'Choose a new password',
    footer: 'If this was not you, ignore this message: your password stays as it is.',
  }),
  activate: (v) => ({
    subject: `Activate your ${v.site} account`,
    heading: 'Welcome',
    lines: [`Confirm that ${v.email} is your address to activate your ${v.site} account.`, 'The link works once, for 24 hours.'],
    action: 'Activate my account',
    footer: 'If you did not sign up, ignore this message.',
  }),
  verify: (v) => ({
    subject: `Verify your ${v.site} e-mail address`,
    heading: 'Verify your address',
    lines: [`Confirm that ${v.email} is the address of your ${v.site} account.`, 'The link works once, for 24 hours.'],
    action: 'Verify my address',
  }),
  email_change: (v) => ({
    subject: `Confirm your new ${v.site} e-mail address`,
    heading: 'Confirm your new address',
    lines: [`Your ${v.site} account asked to use ${v.email} from now on.`, 'The address changes when you open this link (once, within 24 hours).'],
    action: 'Use this address',
    footer: 'If this was not you, ignore this message.',
  }),
  email_change_notice: (v) => ({
    subject: `Your ${v.site} e-mail address is being changed`,
    heading: 'E-mail change requested',
    lines: [`Someone signed in to your ${v.site} account asked to change its address to ${v.email}.`, 'If this was not you, change your password now.'],
  }),
  password_changed: (v) => ({
    subject: `Your ${v.site} password was changed`,
    heading: 'Password changed',
    lines: [`The password of your ${v.site} account ${v.email} was changed. Other sessions were signed out.`, 'If this was not you, reset your password now.'],
  }),
  password_reset_done: (v) => ({
    subject: `Your ${v.site} password was reset`,
    heading: 'Password reset',
    lines: [
      `The password of your ${v.site} account ${v.email} was reset with a link sent to this address. Every session was signed out.`,
      ...(v.ended === '1'
        ? ['This was the first proof that this address is yours, so every passkey, WebDAV password, connected app and two-step verification made before it was removed.']
        : []),
      'What can still sign in to the account besides the new password:',
      `Passkeys: ${v.passkeys || 'none'}.`,
      `WebDAV passwords: ${v.webdav || 'none'}.`,
      `Connected apps: ${v.apps || 'none'}.`,
      `Two-step verification: ${v.two_step ? 'on' : 'off'}.`,
      'If this was not you, reset your password now.',
    ],
  }),
  passkey_added: (v) => ({
    subject: `A passkey was added to your ${v.site} account`,
    heading: 'New passkey',
    lines: [`The passkey “${v.name}” can now sign in to your ${v.site} account ${v.email}.`, 'If this was not you, remove it in Settings → Security and change your password.'],
  }),
  shared_with_you: (v) => ({
    subject: `${v.owner} shared "${v.name}" with you`,
    heading: 'Shared with you',
    lines: [`${v.owner} gave you ${v.permission === 'write' ? 'edit' : 'view'} access to "${v.name}" on ${v.site}.`, 'You find it under "Shared with me".'],
    action: 'Open Shared with me',
  }),
  two_factor_changed: (v) => ({
    subject: `Two-step verification ${v.state === 'on' ? 'turned on' : v.state === 'off' ? 'turned off' : 'changed'} on ${v.site}`,
    heading: 'Two-step verification',
    lines: [
      v.state === 'on'
        ? `Two-step verification is now on for your ${v.site} account ${v.email}.`
        : v.state === 'off'
          ? `Two-step verification is now off for your ${v.site} account ${v.email}.`
          : `New recovery codes were made for your ${v.site} account ${v.email}; the old ones no longer work.`,
      'If this was not you, change your password now.',
    ],
  }),
  upload_received: (v) => ({
    subject: v.count === '1' ? `A file arrived through your upload link on ${v.site}` : `${v.count} files arrived through your upload link on ${v.site}`,
    heading: v.count === '1' ? 'New file received' : 'New files received',
    lines: [`Your upload link for ${v.folder} received: ${v.files}.`, 'The share’s details list every file received and who sent it.'],
    action: 'Open the folder',
  }),
  upload_infected: (v) => ({
    subject: `A file with a virus was refused on ${v.site}`,
    heading: 'A file was refused',
    lines: [
      v.via === 'link'
        ? `Someone sent ${v.file} through your upload link. The virus scanner found ${v.signature} in it.`
        : `The virus scanner found ${v.signature} in ${v.file}, uploaded to your account.`,
      'The file was deleted and never appeared in your files. Nothing needs to be done.',
    ],
  }),
  link_downloaded: (v) => ({
    subject: `Your link to "${v.name}" was downloaded on ${v.site}`,
    heading: 'Link downloaded',
    lines: [`Someone downloaded "${v.name}" through your share link.`, 'You asked to be told of each download of this link; turn it off in the link’s settings.'],
    action: 'Open your shares',
  }),
  quota_almost_full: (v) => ({
    subject: `Your ${v.site} storage is ${v.percent}% full`,
    heading: 'Storage almost full',
    lines: [`Your files use ${v.percent}% of your storage on ${v.site}.`, 'Empty the trash, delete old versions or ask your administrator for more space.'],
    action: 'Open my files',
  }),
  new_device_sign_in: (v) => ({
    subject: `A new sign-in to your ${v.site} account`,
    heading: 'New device signed in',
    lines: [`Your account ${v.email} was signed in from ${v.device} (address ${v.ip}).`, 'If this was you, nothing needs to be done.'],
    action: 'Review your sessions',
    footer: 'If this was not you, change your password and sign out the sessions you do not know.',
  }),
  app_authorized: (v) => ({
    subject: `${v.app} can now use your ${v.site} account`,
    heading: 'App authorized',
    lines: [`You allowed ${v.app} to use your ${v.site} account (${v.scopes}).`],
    action: 'Review connected apps',
    footer: 'If this was not you, revoke the app and change your password.',
  }),
  notification_digest: (v) => ({
    subject: v.count === '1' ? `1 notification from ${v.site} today` : `${v.count} notifications from ${v.site} today`,
    heading: 'Your daily summary',
    lines: (v.items ?? '').split('\n'),
    action: 'Open notifications',
    footer: 'You get this summary once a day because of your notification settings.',
  }),
};

const zh: Dictionary = {
  test: (v) => ({ subject: `来自 ${v.site} 的测试邮件`, heading: '发送成功', lines: [`${v.site} 可以通过此 SMTP 服务器发送邮件。`] }),
  reset: (v) => ({
    subject: `重置你的 ${v.site} 密码`,
    heading: '重置密码',
    lines: [`有人请求重置 ${v.site} 账户 ${v.email} 的密码。`, '此链接只能使用一次，1 小时内有效。'],
    action: '设置新密码',
    footer: '如果这不是你本人的操作，请忽略此邮件，你的密码不会改变。',
  }),
  activate: (v) => ({
    subject: `激活你的 ${v.site} 账户`,
    heading: '欢迎',
    lines: [`请确认 ${v.email} 是你的邮箱，以激活你的 ${v.site} 账户。`, '此链接只能使用一次，24 小时内有效。'],
    action: '激活账户',
    footer: '如果你没有注册，请忽略此邮件。',
  }),
  verify: (v) => ({
    subject: `验证你的 ${v.site} 邮箱`,
    heading: '验证邮箱',
    lines: [`请确认 ${v.email} 是你的 ${v.site} 账户的邮箱。`, '此链接只能使用一次，24 小时内有效。'],
    action: '验证邮箱',
  }),
  email_change: (v) => ({
    subject: `确认你的 ${v.site} 新邮箱`,
    heading: '确认新邮箱',
    lines: [`你的 ${v.site} 账户请求改用 ${v.email}。`, '打开此链接后邮箱才会更改（只能使用一次，24 小时内有效）。'],
    action: '使用此邮箱',
    footer: '如果这不是你本人的操作，请忽略此邮件。',
  }),
  email_change_notice: (v) => ({
    subject: `你的 ${v.site} 邮箱正在被更改`,
    heading: '邮箱更改请求',
    lines: [`已登录你的 ${v.site} 账户的人请求将邮箱改为 ${v.email}。`, '如果这不是你本人的操作，请立即修改密码。'],
  }),
  password_changed: (v) => ({
    subject: `你的 ${v.site} 密码已修改`,
    heading: '密码已修改',
    lines: [`你的 ${v.site} 账户 ${v.email} 的密码已修改，其他会话已退出。`, '如果这不是你本人的操作，请立即重置密码。'],
  }),
  password_reset_done: (v) => ({
    subject: `你的 ${v.site} 密码已重置`,
    heading: '密码已重置',
    lines: [
      `你的 ${v.site} 账户 ${v.email} 的密码已通过发送到此邮箱的链接重置，所有会话已退出。`,
      ...(v.ended === '1' ? ['这是此邮箱首次被证明属于你，因此在此之前添加的通行密钥、WebDAV 密码、已连接的应用和两步验证均已移除。'] : []),
      '除新密码外，仍可登录此账户的方式：',
      `通行密钥：${v.passkeys || '无'}。`,
      `WebDAV 密码：${v.webdav || '无'}。`,
      `已连接的应用：${v.apps || '无'}。`,
      `两步验证：${v.two_step ? '已开启' : '已关闭'}。`,
      '如果这不是你本人的操作，请立即重置密码。',
    ],
  }),
  passkey_added: (v) => ({
    subject: `你的 ${v.site} 账户添加了通行密钥`,
    heading: '新的通行密钥',
    lines: [`通行密钥“${v.name}”现在可以登录你的 ${v.site} 账户 ${v.email}。`, '如果这不是你本人的操作，请在“设置 → 安全”中移除它并修改密码。'],
  }),
  shared_with_you: (v) => ({
    subject: `${v.owner} 与你共享了“${v.name}”`,
    heading: '与你共享',
    lines: [`${v.owner} 在 ${v.site} 上授予你“${v.name}”的${v.permission === 'write' ? '编辑' : '查看'}权限。`, '你可以在“与我共享”中找到它。'],
    action: '打开“与我共享”',
  }),
  two_factor_changed: (v) => ({
    subject: `${v.site} 两步验证${v.state === 'on' ? '已开启' : v.state === 'off' ? '已关闭' : '已更改'}`,
    heading: '两步验证',
    lines: [
      v.state === 'on'
        ? `你的 ${v.site} 账户 ${v.email} 已开启两步验证。`
        : v.state === 'off'
          ? `你的 ${v.site} 账户 ${v.email} 已关闭两步验证。`
          : `你的 ${v.site} 账户 ${v.email} 已生成新的恢复码，旧的恢复码不再有效。`,
      '如果这不是你本人的操作，请立即修改密码。',
    ],
  }),
  upload_received: (v) => ({
    subject: v.count === '1' ? `你在 ${v.site} 的上传链接收到了一个文件` : `你在 ${v.site} 的上传链接收到了 ${v.count} 个文件`,
    heading: '收到新文件',
    lines: [`你为 ${v.folder} 创建的上传链接收到了：${v.files}。`, '在分享详情中可以看到收到的每个文件及上传者。'],
    action: '打开文件夹',
  }),
  upload_infected: (v) => ({
    subject: `${v.site} 拒收了一个含病毒的文件`,
    heading: '文件已被拒收',
    lines: [
      v.via === 'link'
        ? `有人通过你的上传链接发送了 ${v.file}，病毒扫描发现其中含有 ${v.signature}。`
        : `病毒扫描在上传到你账户的 ${v.file} 中发现了 ${v.signature}。`,
      '该文件已被删除，从未出现在你的文件中。你无需进行任何操作。',
    ],
  }),
  link_downloaded: (v) => ({
    subject: `你在 ${v.site} 上“${v.name}”的链接被下载了`,
    heading: '链接被下载',
    lines: [`有人通过你的分享链接下载了“${v.name}”。`, '你要求在此链接每次被下载时收到通知；可在链接设置中关闭。'],
    action: '打开我的分享',
  }),
  quota_almost_full: (v) => ({
    subject: `你在 ${v.site} 的存储空间已用 ${v.percent}%`,
    heading: '存储空间即将用尽',
    lines: [`你的文件已占用 ${v.site} 上存储空间的 ${v.percent}%。`, '可以清空回收站、删除旧版本，或请管理员增加空间。'],
    action: '打开我的文件',
  }),
  new_device_sign_in: (v) => ({
    subject: `你的 ${v.site} 账户有新的登录`,
    heading: '新设备登录',
    lines: [`你的账户 ${v.email} 在 ${v.device}（地址 ${v.ip}）上登录。`, '如果是你本人，无需任何操作。'],
    action: '查看登录会话',
    footer: '如果不是你本人，请修改密码并退出你不认识的会话。',
  }),
  app_authorized: (v) => ({
    subject: `${v.app} 现在可以使用你的 ${v.site} 账户`,
    heading: '已授权应用',
    lines: [`你允许 ${v.app} 使用你的 ${v.site} 账户（${v.scopes}）。`],
    action: '查看已连接的应用',
    footer: '如果不是你本人，请撤销该应用并修改密码。',
  }),
  notification_digest: (v) => ({
    subject: `${v.site} 今日有 ${v.count} 条通知`,
    heading: '每日摘要',
    lines: (v.items ?? '').split('\n'),
    action: '打开通知',
    footer: '根据你的通知设置，你每天会收到一次此摘要。',
  }),
};

export function mailWords(language: MailLanguage, kind: MailKind, vars: Vars): MailWords {
  return (language === 'zh-CN' ? zh : en)[kind](vars);
}

/** The language of a stored preference or an Accept-Language header: zh* -> zh-CN, anything else English. */
export function mailLanguage(preference: string | null | undefined, acceptLanguage?: string | undefined): MailLanguage {
  const pick = preference ?? firstLanguage(acceptLanguage);
  return pick && /^zh\b/i.test(pick) ? 'zh-CN' : 'en';
}

function firstLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)?.[1]).find(Boolean);
      return { tag: tag?.trim() ?? '', q: q ? Number(q) : 1 };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked[0]?.tag;
}
