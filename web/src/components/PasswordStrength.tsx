// Password strength as the person types: the same library (zxcvbn-ts) and the
// same rule as the server (score 3 of 4 at least, accounts/password-strength.ts).
// The dictionaries are loaded on first use, in their own chunk.
import { Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const MIN_PASSWORD_SCORE = 3;

interface Judgement {
  score: number;
  warning: string | null;
}

type Checker = (password: string, userInputs: string[]) => Judgement;
let checker: Promise<Checker> | undefined;

function loadChecker(): Promise<Checker> {
  checker ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]);
    const factory = new ZxcvbnFactory({ translations: en.translations, graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary, ...en.dictionary } });
    return (password, userInputs) => {
      const r = factory.check(password.slice(0, 100), userInputs.filter(Boolean));
      return { score: r.score, warning: r.feedback.warning ?? null };
    };
  })();
  return checker;
}

/** The score of `password` (null while unknown); re-judged as it changes. */
export function usePasswordScore(password: string, userInputs: string[] = []): Judgement | null {
  const [judgement, setJudgement] = useState<Judgement | null>(null);
  const inputs = userInputs.join('\n');
  useEffect(() => {
    let live = true;
    if (!password) {
      setJudgement(null);
      return;
    }
    void loadChecker().then((check) => {
      if (live) setJudgement(check(password, inputs.split('\n')));
    });
    return () => {
      live = false;
    };
  }, [password, inputs]);
  return judgement;
}

const COLORS = ['red', 'red', 'orange', 'teal', 'green'];

export function PasswordStrength({ judgement }: { judgement: Judgement | null }) {
  const { t } = useTranslation();
  if (!judgement) return null;
  const label = t(`account.strength.${judgement.score}`);
  return (
    <Stack gap={4} aria-live="polite">
      <Progress value={(judgement.score + 1) * 20} color={COLORS[judgement.score]} size="sm" aria-label={t('account.strength.label')} />
      <Text size="xs" c={judgement.score >= MIN_PASSWORD_SCORE ? 'dimmed' : 'red.8'}>
        {t('account.strength.label')}: {label}
        {judgement.score < MIN_PASSWORD_SCORE ? ` — ${t('account.strength.tooWeak')}` : ''}
        {judgement.warning && judgement.score < MIN_PASSWORD_SCORE ? ` ${judgement.warning}` : ''}
      </Text>
    </Stack>
  );
}
