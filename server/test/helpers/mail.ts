// A real SMTP server in the test process (smtp-server), whose messages are
// parsed with mailparser and read the way a person reads them: the subject,
// the text, the link to follow. It can be stopped and started again on the
// same port (an outage), and refuse recipients whose address starts with
// "reject" (the 550 a server answers for an unknown mailbox).
import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { freePort } from '../../src/ops/free-port.js';

export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  raw: ParsedMail;
}

export class MailCatcher {
  readonly messages: CaughtMail[] = [];
  private server: SMTPServer | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<MailCatcher> {
    const catcher = new MailCatcher(await freePort('127.0.0.1'));
    await catcher.resume();
    return catcher;
  }

  /** The CIRRUS_* variables that point Cirrus at this server. */
  get env(): Record<string, string> {
    return { CIRRUS_SMTP_HOST: '127.0.0.1', CIRRUS_SMTP_PORT: String(this.port), CIRRUS_SMTP_SECURITY: 'none', CIRRUS_MAIL_FROM: 'Cirrus <noreply@example.org>' };
  }

  async resume(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (address.address.startsWith('reject')) {
          const err = new Error('No such mailbox here') as Error & { responseCode: number };
          err.responseCode = 550;
          callback(err);
          return;
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream).then(
          (mail) => {
            const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
            this.messages.push({ to, from: mail.from?.text ?? '', subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '', messageId: mail.messageId ?? '', raw: mail });
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    server.listen(this.port, '127.0.0.1');
    await once(server.server, 'listening');
    this.server = server;
  }

  /** Stops answering (connections are refused) until resume(). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string): CaughtMail[] {
    return this.messages.filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
  }

  /** Waits for the n-th (default first) message to `address`. */
  async waitFor(address: string, n = 1, timeoutMs = 15_000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(address);
      if (found.length >= n) return found[n - 1]!;
      if (Date.now() > deadline) throw new Error(`no mail #${n} to ${address} within ${timeoutMs} ms (got ${this.messages.length} in all: ${this.messages.map((m) => m.to).join(', ')})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The first link in a mail's text that leads to `path` on the site, as a person would copy it. */
export function linkIn(mail: CaughtMail, path: string): URL {
  const match = mail.text.match(/https?:\/\/\S+/g)?.map((u) => new URL(u)).find((u) => u.pathname === path);
  if (!match) throw new Error(`no ${path} link in the mail "${mail.subject}":\n${mail.text}`);
  return match;
}
