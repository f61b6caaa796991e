import { ActivatePage } from './LinkPage';

export default ActivatePage;
