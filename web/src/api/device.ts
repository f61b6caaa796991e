// The two calls the /device page needs (RFC 8628 §3.3, api-contract §12).
import { api, data } from './client';
import type { DeviceDecision, DeviceRequest } from './generated/schema';

export function verifyUserCode(userCode: string): Promise<DeviceRequest> {
  return data(api().POST('/api/v4/session/oauth/device/verify', { body: { user_code: userCode } }));
}

export function decideDevice(userCode: string, approve: boolean): Promise<DeviceDecision> {
  return data(api().POST('/api/v4/session/oauth/device/consent', { body: { user_code: userCode, approve } }));
}
