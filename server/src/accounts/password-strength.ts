// The one password strength rule (api-contract §11): zxcvbn's score below 3
// (of 0-4) is refused, with zxcvbn's own warning and suggestions as the
// reason. The web app runs the same library with the same threshold while
// the person types. The dictionaries (common passwords, English words and
// names) are built once, on first use.
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { DomainError, ErrorCode } from '../core/errors.js';

export const MIN_PASSWORD_SCORE = 3;

let factory: ZxcvbnFactory | undefined;

function zxcvbn(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary },
  });
  return factory;
}

export function passwordScore(password: string, userInputs: string[] = []): ZxcvbnResult {
  // zxcvbn's cost grows with the length; past 100 characters only the first 100 are judged.
  return zxcvbn().check(password.slice(0, 100), personalWords(userInputs));
}

/** The address, its local part and the words in it, and the name: a password made of them is easy to guess for whoever knows the person. */
function personalWords(inputs: string[]): string[] {
  const words = new Set<string>();
  for (const input of inputs.map((i) => i.trim().toLowerCase()).filter(Boolean)) {
    words.add(input);
    const local = input.split('@')[0]!;
    words.add(local);
    for (const part of local.split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** Throws 400/40001 with the reason when the password is too easy to guess. */
export function checkPasswordStrength(password: string, userInputs: string[] = []): void {
  const result = passwordScore(password, userInputs);
  if (result.score >= MIN_PASSWORD_SCORE) return;
  const reason = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(' ');
  throw new DomainError(
    ErrorCode.ParamError,
    `password: too easy to guess (strength ${result.score} of 4, at least ${MIN_PASSWORD_SCORE} needed).${reason ? ` ${reason}` : ' Use a longer password, or several uncommon words.'}`,
    { data: { field: 'password', score: result.score, warning: result.feedback.warning, suggestions: result.feedback.suggestions } },
  );
}
