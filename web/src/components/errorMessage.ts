// An error in the reader's language: a refused field becomes a sentence for
// its rule (api/fieldErrors.ts), a known envelope code its own sentence. The
// server's own message (English, specific) is added only for English readers
// and never when it is schema text: a Chinese reader sees no English.
import i18n, { type TFunction } from 'i18next';
import { ApiError } from '../api/client';
import { fieldProblem, type FieldProblem } from '../api/fieldErrors';

/** The sentence for a refused field (its rule, with the limit when there is one). */
export function fieldMessage(problem: FieldProblem, t: TFunction): string {
  return t(`errors.field.${problem.rule}`, problem.params);
}

/**
 * The sentence to put beside a refused field: its rule in the reader's
 * language; a rule without a sentence of its own keeps the server's detail
 * (after the field name) for English readers only.
 */
export function fieldText(err: unknown, t: TFunction): string {
  const problem = fieldProblem(err);
  if (!problem) return errorMessage(err, t);
  const english = (i18n.language || 'en').startsWith('en');
  if (problem.rule === 'invalid' && english && err instanceof ApiError) return err.message.replace(/^[^:]+: /, '');
  return fieldMessage(problem, t);
}

/** "field: " or "body/field, other: " at the start of a server message. */
const FIELD_PREFIX = /^[\w.[\]/, ]+: /;

export function errorMessage(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    const key = `errors.${err.code}`;
    const known = t(key, { defaultValue: '' });
    if (err.status === 0) return t('errors.network');
    // A lock: say how long it lasts, in the reader's language.
    if (err.code === 429 && err.retryAfter !== null) {
      const minutes = Math.ceil(err.retryAfter / 60);
      return err.retryAfter < 60 ? t('errors.429_seconds', { count: err.retryAfter }) : t('errors.429_minutes', { count: minutes });
    }
    const problem = fieldProblem(err);
    if (problem) return fieldMessage(problem, t);
    const english = (i18n.language || 'en').startsWith('en');
    // A refused parameter's message (40001) is schema text; other refusals name the field they concern
    // ("is_admin: the last active administrators…"), and that prefix is for programs, not people.
    const detail = err.code === 40001 && FIELD_PREFIX.test(err.message) ? '' : err.message.replace(FIELD_PREFIX, '');
    if (known) return english && detail && err.code !== 401 ? `${known} (${detail})` : known;
    return english && detail ? detail : t('common.error');
  }
  return err instanceof Error && err.message ? err.message : t('common.error');
}
