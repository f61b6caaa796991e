// Dashboard → Settings → E-mail: the outbox's counts, and a test message sent
// at once (not through the outbox) so the administrator reads the SMTP
// server's own reply or error.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Email } from '../http/schemas.js';
import { Body, Envelope, View, errors } from '../http/contract.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import { timeOrderedId } from '../crypto/random.js';
import type { Clock } from '../core/clock.js';
import type { Outbox } from './outbox.js';
import { renderMail } from './templates.js';
import { mailLanguage } from './messages.js';

const MailStatus = View(
  {
    configured: Type.Boolean(),
    queued: Type.Integer({ description: 'waiting or being retried' }),
    sent: Type.Integer(),
    failed: Type.Integer({ description: 'given up after 24 h of retries' }),
  },
  { title: 'MailStatus' },
);
const TestResult = View(
  { sent: Type.Boolean(), response: Type.String({ description: "the SMTP server's reply, or the error" }) },
  { title: 'MailTestResult' },
);

export function mailRoutes(app: FastifyInstance, outbox: Outbox, siteName: () => Promise<string>, clock: Clock): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/admin/mail',
    { config: { auth: 'required', admin: true, scopes: ['Admin.Read'] }, schema: { description: 'Whether mail is configured, and the outbox counts.', response: { 200: Envelope(MailStatus) } } },
    async () => ok({ configured: await outbox.configured(), ...(await outbox.counts()) }),
  );

  r.post(
    '/api/v4/admin/mail/test',
    {
      config: { auth: 'required', admin: true, scopes: ['Admin.Write'] },
      schema: {
        description: "Sends a test message now and answers with the SMTP server's reply or error (403/40019 without a transport).",
        body: Body({ to: Email }),
        response: { 200: Envelope(TestResult), ...errors(403) },
      },
    },
    async (request) => {
      if (!(await outbox.configured())) throw new DomainError(ErrorCode.FeatureDisabled, 'No mail transport is configured (CIRRUS_SMTP_HOST and CIRRUS_MAIL_FROM, or Settings → E-mail)');
      const language = mailLanguage(null, request.headers['accept-language']);
      const mail = await renderMail({ kind: 'test', language, site: await siteName(), email: request.body.to });
      try {
        const result = await outbox.sender.send({ id: timeOrderedId(clock.now()), to: request.body.to, ...mail });
        return ok({ sent: true, response: result.response });
      } catch (err) {
        const response = (err as { response?: unknown }).response;
        return ok({ sent: false, response: typeof response === 'string' && response ? response : (err as Error).message });
      }
    },
  );
}
