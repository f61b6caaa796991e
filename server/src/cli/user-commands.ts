// `user create`, `user list`, `user reset-password`: the operator's account
// tools, with the same rules as the admin API.
import { Value } from 'typebox/value';
import { ADMIN_GROUP_ID } from '../accounts/service.js';
import { Email, Nickname, Password } from '../http/schemas.js';
import type { CommandSpec } from './command.js';
import { CommandError } from './errors.js';
import { auditCliAction, optionNames, withServices } from './services.js';

const create: CommandSpec = {
  words: ['user', 'create'],
  summary: 'create a user (the same rules as sign-up)',
  options: {
    email: { type: 'string', value: '<e-mail>', required: true, help: 'the e-mail address to sign in with' },
    password: { type: 'string', value: '<password>', required: true, help: '8 to 128 characters' },
    nickname: { type: 'string', value: '<name>', help: 'display name (default: from the e-mail)' },
    admin: { type: 'boolean', help: 'put the user in the Administrators group' },
  },
  async run({ config, values, out }) {
    const email = values.email as string;
    const password = values.password as string;
    const nickname = values.nickname as string | undefined;
    if (!Value.Check(Email, email)) throw new CommandError('--email must be an e-mail address of at most 254 characters');
    if (!Value.Check(Password, password)) throw new CommandError('the password must be 8 to 128 characters, without NUL');
    if (nickname !== undefined && !Value.Check(Nickname, nickname)) throw new CommandError('--nickname must be 1 to 64 characters, without control characters');
    await withServices(config, async (s) => {
      const user = await s.accounts.create({ email, password, nickname, groupId: values.admin ? ADMIN_GROUP_ID : undefined });
      auditCliAction(s, { action: 'admin.user_created', targetType: 'user', targetId: user.id, detail: optionNames(values) });
      out(`Created user ${user.email} with UID ${user.id}${values.admin ? ' (administrator)' : ''}.`);
    });
  },
};

const list: CommandSpec = {
  words: ['user', 'list'],
  summary: 'list users: UID, e-mail, group, status',
  options: {
    page: { type: 'string', value: '<n>', help: 'page number, from 1 (default 1)' },
    'page-size': { type: 'string', value: '<n>', help: 'users per page, 1 to 1000 (default 100)' },
  },
  async run({ config, values, out }) {
    const page = positiveInt(values.page, '--page', 1, 1_000_000);
    const pageSize = positiveInt(values['page-size'], '--page-size', 100, 1000);
    await withServices(config, async (s) => {
      const { users, total } = await s.accounts.list(page, pageSize);
      out(['UID'.padEnd(12), 'E-MAIL'.padEnd(40), 'GROUP'.padEnd(16), 'STATUS'].join(' '));
      for (const u of users) out([u.id.padEnd(12), u.email.padEnd(40), u.group_name.padEnd(16), u.status].join(' '));
      out(`${users.length} of ${total} users (page ${page}).`);
    });
  },
};

const resetPassword: CommandSpec = {
  words: ['user', 'reset-password'],
  summary: "set a generated one-time password and end all of the user's sessions",
  options: {
    user: { type: 'string', value: '<UID|e-mail>', required: true, help: 'whose password to reset' },
  },
  async run({ config, values, out }) {
    await withServices(config, async (s) => {
      const user = await s.accounts.findByLogin(values.user as string);
      if (!user) throw new CommandError(`no user ${values.user as string}`);
      const password = await s.accounts.resetPassword(user.id);
      auditCliAction(s, { action: 'admin.user_password_reset', targetType: 'user', targetId: user.id });
      out(`New password for ${user.email}: ${password}`);
      out('It is shown this once. Every session of this user has been signed out; ask them to change it after signing in.');
    });
  },
};

export const userCommands = [create, list, resetPassword];

export function positiveInt(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new CommandError(`${name} must be a whole number from 1 to ${max}`);
  return n;
}
