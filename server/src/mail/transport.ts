// The SMTP transport (api-contract §11): CIRRUS_SMTP_* from the environment,
// each field overridable in Dashboard → Settings → E-mail (admin settings
// smtp_*, mail_from; a field left empty there falls back to the environment).
// One nodemailer transport is kept per effective configuration and rebuilt
// when the settings change.
import type { Transporter } from 'nodemailer';
import type { MailEnvConfig } from '../config.js';

export type SmtpSecurity = MailEnvConfig['security'];

/** The mail fields of the admin settings ('' / null = use the environment's). */
export interface MailSettings {
  smtp_host: string;
  smtp_port: number | null;
  smtp_security: SmtpSecurity | '';
  smtp_user: string;
  smtp_password: string;
  mail_from: string;
}

export interface EffectiveMailConfig {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export interface OutgoingMail {
  /** Becomes the Message-ID, so a receiver can tell a message from a copy. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SendResult {
  /** The SMTP server's final reply (e.g. "250 2.0.0 Ok: queued as …"). */
  response: string;
}

/** What the outbox and the test route need: sending, and whether sending is possible at all. */
export interface MailSender {
  /** The effective configuration, or null when no SMTP host or sender address is set (flows that need mail answer 40019). */
  config(): Promise<EffectiveMailConfig | null>;
  send(mail: OutgoingMail): Promise<SendResult>;
}

/** Merges the admin settings over the environment. */
export function effectiveMailConfig(env: MailEnvConfig, settings: MailSettings): EffectiveMailConfig | null {
  const host = settings.smtp_host || env.host;
  const from = settings.mail_from || env.from;
  if (!host || !from) return null;
  return {
    host,
    port: settings.smtp_port ?? env.port,
    security: settings.smtp_security || env.security,
    user: settings.smtp_user || env.user,
    password: settings.smtp_password || env.password,
    from,
  };
}

export class SmtpSender implements MailSender {
  private cached: { key: string; transport: Transporter } | undefined;

  constructor(
    private readonly env: MailEnvConfig,
    private readonly settings: () => Promise<MailSettings>,
  ) {}

  async config(): Promise<EffectiveMailConfig | null> {
    return effectiveMailConfig(this.env, await this.settings());
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    const config = await this.config();
    if (!config) throw new Error('no SMTP transport is configured');
    const info = (await (await this.transport(config)).sendMail({
      from: config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.id}@${messageIdDomain(config.from)}>`,
    })) as { response?: string };
    return { response: info.response ?? '' };
  }

  close(): void {
    this.cached?.transport.close();
    this.cached = undefined;
  }

  private async transport(config: EffectiveMailConfig): Promise<Transporter> {
    const key = JSON.stringify(config);
    if (this.cached?.key === key) return this.cached.transport;
    // nodemailer (about 2 MB of heap) loads with the first mail sent, not at start-up (issue 19's memory target).
    const { default: nodemailer } = await import('nodemailer');
    if (this.cached?.key === key) return this.cached.transport;
    this.cached?.transport.close();
    const transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.security === 'tls',
      requireTLS: config.security === 'starttls',
      ignoreTLS: config.security === 'none',
      ...(config.user ? { auth: { user: config.user, pass: config.password ?? '' } } : {}),
      // A server that does not answer must not hold a claimed message for minutes (outbox lease: 5 min).
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
    this.cached = { key, transport };
    return transport;
  }
}

/** The domain of the sender address, for Message-IDs ("Cirrus <noreply@example.org>" -> example.org). */
function messageIdDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)/.exec(from);
  return match?.[1] ?? 'cirrus.invalid';
}

/** True when a value could add a header line (CR, LF or another control character). */
export function hasHeaderBreak(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return /[\u0000-\u001f\u007f]/.test(value);
}
