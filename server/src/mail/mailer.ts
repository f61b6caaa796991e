// What features use to send mail: render in the recipient's language with the
// site's name, then queue in the outbox. Nothing here talks SMTP.
import type { Outbox } from './outbox.js';
import { renderMail } from './templates.js';
import type { MailKind, MailLanguage } from './messages.js';

export interface QueuedMail {
  kind: MailKind;
  to: string;
  language: MailLanguage;
  /** The address named in the text (default: `to`). */
  email?: string;
  link?: string;
  vars?: Record<string, string>;
}

export class Mailer {
  constructor(
    readonly outbox: Outbox,
    private readonly siteName: () => Promise<string>,
  ) {}

  configured(): Promise<boolean> {
    return this.outbox.configured();
  }

  async queue(mail: QueuedMail): Promise<string> {
    const rendered = await renderMail({ kind: mail.kind, language: mail.language, site: await this.siteName(), email: mail.email ?? mail.to, link: mail.link, vars: mail.vars });
    return this.outbox.enqueue({ kind: mail.kind, to: mail.to, ...rendered });
  }
}
