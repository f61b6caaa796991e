// How a notification reads in mail: the instant mail of each kind (the
// existing share and upload-request mails for those two) and its line in the
// daily digest, in the reader's language. `data` is what the notification
// stores (service.ts), language-neutral.
import type { MailKind, MailLanguage } from '../mail/messages.js';
import type { Kind } from './kinds.js';

export type Data = Record<string, unknown>;

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** "a, b and 3 more" (zh: "a、b 等 5 个文件") from the names kept and the count. */
export function fileList(data: Data, language: MailLanguage): string {
  const names = Array.isArray(data.files) ? data.files.map(str) : [];
  const count = Number(data.count ?? names.length);
  const more = count - names.length;
  if (more <= 0) return names.join(', ');
  return language === 'zh-CN' ? `${names.join(', ')} 等 ${count} 个文件` : `${names.join(', ')} and ${more} more`;
}

function deviceName(data: Data): string {
  return [str(data.browser), str(data.os)].filter(Boolean).join(', ') || 'an unknown device';
}

/** The instant mail of a notification; null for kinds whose mail is sent elsewhere (security notices, §11). */
export function instantMail(type: Kind, data: Data, language: MailLanguage): { kind: MailKind; vars: Record<string, string> } | null {
  switch (type) {
    case 'shared_with_me':
      return { kind: 'shared_with_you', vars: { owner: str(data.owner), name: str(data.name), permission: str(data.permission) } };
    case 'upload_request_received':
      return { kind: 'upload_received', vars: { count: str(data.count), files: fileList(data, language), folder: str(data.folder) } };
    case 'link_downloaded':
      return { kind: 'link_downloaded', vars: { name: str(data.name) } };
    case 'quota_almost_full':
      return { kind: 'quota_almost_full', vars: { percent: str(data.percent) } };
    case 'new_device_sign_in':
      return { kind: 'new_device_sign_in', vars: { device: deviceName(data), ip: str(data.ip) } };
    case 'app_authorized':
      return { kind: 'app_authorized', vars: { app: str(data.app), scopes: Array.isArray(data.scopes) ? data.scopes.map(str).join(', ') : '' } };
    case 'security_change':
      return null;
  }
}

const CHANGES: Record<string, [string, string]> = {
  password_changed: ['your password was changed', '你的密码已更改'],
  password_reset: ['your password was reset', '你的密码已重置'],
  two_factor_on: ['two-step verification was turned on', '两步验证已开启'],
  two_factor_off: ['two-step verification was turned off', '两步验证已关闭'],
  recovery_codes: ['new recovery codes were made', '已生成新的恢复码'],
  passkey_added: ['a passkey was added', '已添加通行密钥'],
};

/** One line of the digest. */
export function digestLine(type: Kind, data: Data, language: MailLanguage): string {
  const zh = language === 'zh-CN';
  switch (type) {
    case 'shared_with_me':
      return zh ? `${str(data.owner)} 与你共享了“${str(data.name)}”` : `${str(data.owner)} shared "${str(data.name)}" with you`;
    case 'upload_request_received':
      return zh ? `你为 ${str(data.folder)} 创建的上传链接收到了：${fileList(data, language)}` : `Your upload link for ${str(data.folder)} received: ${fileList(data, language)}`;
    case 'link_downloaded':
      return zh ? `有人通过你的链接下载了“${str(data.name)}”` : `Someone downloaded "${str(data.name)}" through your link`;
    case 'quota_almost_full':
      return zh ? `你的存储空间已用 ${str(data.percent)}%` : `Your storage is ${str(data.percent)}% full`;
    case 'new_device_sign_in':
      return zh ? `新设备登录：${deviceName(data)}（${str(data.ip)}）` : `A sign-in from a new device: ${deviceName(data)} (${str(data.ip)})`;
    case 'app_authorized':
      return zh ? `你授权了应用 ${str(data.app)}` : `You authorized the app ${str(data.app)}`;
    case 'security_change': {
      const words = CHANGES[str(data.change)];
      return words ? (zh ? `安全变更：${words[1]}` : `Security change: ${words[0]}`) : zh ? '安全变更' : 'A security change';
    }
  }
}
