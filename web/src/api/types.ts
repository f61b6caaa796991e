// Shapes of the API as the web app uses them (api-contract §3 and §5).

export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  access_expires: string;
  refresh_expires: string;
}

export interface User {
  id: string;
  email: string;
  nickname: string;
  status?: string;
  created_at: string;
  group: { id: number; name: string };
  is_admin: boolean;
  two_fa_enabled?: boolean;
  /** Versioned path of the 256-pixel avatar; null for initials. */
  avatar_url?: string | null;
}

export interface OAuthAppInfo {
  id: string;
  name: string;
  icon: string;
  homepage_url?: string | null;
  description?: string | null;
  scopes: string[];
  consented_scopes?: string[] | null;
}

/** What the consent endpoint returns: a code on approval, or only an (error) redirect. */
export interface ConsentResult {
  code?: string;
  state?: string | null;
  redirect_uri: string;
}
