// Sharing's view of accounts, the site settings and mail, wired at start-up.
import type { AccountService } from '../accounts/service.js';
import type { SettingsService } from '../site/settings.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage } from '../mail/messages.js';
import type { Person, SharingPorts } from './service.js';

export function sharingPorts(accounts: AccountService, settings: SettingsService, mailer: Mailer, baseUrl: string): SharingPorts {
  return {
    findUser: (login) => accounts.findByLogin(login) as Promise<Person | undefined>,
    findUserById: (id) => accounts.findById(id) as Promise<Person | undefined>,
    shareWith: async () => (await settings.current()).share_with,
    async notify(to, vars) {
      try {
        if (!(await mailer.configured())) return;
        await mailer.queue({ kind: 'shared_with_you', to: to.email, language: mailLanguage(to.locale), link: `${baseUrl}/shared`, vars });
      } catch {
        // A grant stands whether or not its mail could be queued; the badge still shows it.
      }
    },
  };
}
