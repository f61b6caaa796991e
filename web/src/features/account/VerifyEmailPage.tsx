import { VerifyEmailPage } from './LinkPage';

export default VerifyEmailPage;
