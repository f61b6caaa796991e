// `/`: the sign-in form, or straight to the files of whoever is signed in.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router';
import { useSession } from '../../app/session';
import { SignInPage } from '../../app/SignInPage';
import { Busy } from '../../components/Busy';

export default function HomePage() {
  const { session } = useSession();
  const { t } = useTranslation();
  useEffect(() => {
    if (session.status === 'signed-in') navigate('/files', { replace: true });
  }, [session.status]);
  if (session.status === 'signed-out' || session.status === 'error') return <SignInPage />;
  return <Busy label={t('common.loading')} />;
}
