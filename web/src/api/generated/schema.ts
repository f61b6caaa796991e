// Generated from GET /api/v4/openapi.json by scripts/generate-api-client.mjs.
// Do not edit: change the route schemas on the server and run `npm run api:generate`.
// (The document is the source: see docs/decisions/022-schema-first-contract.md.)

export interface paths {
  "/api/v4/site/ping": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: none. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              /** server version */
              data: string;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/site/config": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: none. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SiteConfig"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/settings": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SiteSettings"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            signup_enabled?: boolean;
            access_token_ttl?: number;
            refresh_token_ttl?: number;
            default_group_id?: number;
            site_name?: string;
            signup_email_verification?: boolean;
            smtp_host?: string;
            smtp_port?: number | null;
            smtp_security?: "" | "starttls" | "tls" | "none";
            smtp_user?: string;
            /** write-only; never returned */
            smtp_password?: string;
            /** e.g. "Cirrus <noreply@example.org>" */
            mail_from?: string;
            /** whom people may share files with */
            share_with?: "anyone" | "groups" | "nobody";
            /** false: only administrators sign in with a Cirrus password (api-contract §15) */
            password_sign_in?: boolean;
            /** days the audit log keeps its rows; 0 keeps them for ever */
            audit_retention_days?: number;
            /** days file and folder activity is kept (default 365); 0 keeps it for ever */
            activity_retention_days?: number;
            /** http(s) URL of map tiles with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png; '' turns the Photos map off */
            map_tile_url?: string;
            /** the credit the tile provider asks for (plain text, e.g. '© OpenStreetMap contributors'), shown in the map's corner; '' shows the tiles' host */
            map_attribution?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SiteSettings"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/admin/mail": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Whether mail is configured, and the outbox counts.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["MailStatus"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/mail/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Sends a test message now and answers with the SMTP server's reply or error (403/40019 without a transport).
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            to: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["MailTestResult"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/reset": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Mails a password reset link (valid 1 h) to the address when it is registered. The answer is the same, in the same time, for any well-formed address; throttled per address and per client (429). 403/40019 when the site cannot send mail.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            email: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /**
       * Sets a new password with the link's token: every session and token of the user ends, the link stops working. 40020 for a bad, used or expired token; 40001 for a password too easy to guess.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            token: string;
            password: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/user/reset/check": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Whether a reset link still works, without using it (the reset page says "expired or used" before asking for a password).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            token: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LinkCheck"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Password sign-in (method B). Failed attempts are throttled per account and per address; a browser that signed in to the account before (its device cookie) is not locked out by guesses from elsewhere. A full sign-in sets that device cookie (Set-Cookie). When an LDAP provider is enabled, `email` may also be a directory login and the password is checked by the directory (a Cirrus password is tried first).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** an e-mail address, or a directory login (uid) when an LDAP provider is enabled */
            email: string;
            password: string;
          };
        };
      };
      responses: {
        /** Signed in (code 0), or a second factor is needed (code 203) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SignedIn"];
              msg: string;
            } | components["schemas"]["SecondFactorRequired"];
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete: {
      /**
       * Sign-out: revokes the whole session family (idempotent).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            refresh_token: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/token/2fa": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * The second step of a sign-in with TOTP: the 6-digit code, or one of the recovery codes (each works once). Sets the device cookie (Set-Cookie) like a one-step sign-in.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** a 6-digit TOTP code or a recovery code */
            otp: string;
            session_id: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SignedIn"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/token/refresh": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Rotates a refresh token (first-party or OAuth). Reusing a replaced token revokes its whole session family.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            refresh_token: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TokenPair"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/session": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The signed-in sessions of this person, newest first.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["UserSessionList"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      /**
       * Signs out every session but this one.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SessionsEnded"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/session/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Signs one session out.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Sign-up (403/40019 while the site has sign-up closed, the default). With signup_email_verification the account is inactive until the mailed activation link is used (POST /user/activate).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            email: string;
            password: string;
            nickname?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need UserInfo.Read. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/setting": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need UserSecurityInfo.Read. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["UserSettings"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /**
       * Changes the nickname and/or the password (the password also needs UserSecurityInfo.Write; revokes the other sessions and voids every mailed link). A wrong current_password is 400/40069, throttled per account (429 after 6 wrong).
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            nickname?: string;
            current_password?: string;
            new_password?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/user/setting/2fa": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Turns TOTP on; answers the ten recovery codes, shown only here.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            otp: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["RecoveryCodes"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post: {
      /**
       * Starts TOTP enrolment: a pending secret, on once confirmed with PUT.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TotpEnrolment"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete: {
      /**
       * Turns two-step verification off with a current TOTP code (401/40022 when wrong). Wrong codes share the sign-in second step's per-account count: 429 after 6.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            otp: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/setting/2fa/recovery-codes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * A new set of ten recovery codes (the old set stops working). The current password is required (400/40069 when wrong; 429 after 6 wrong).
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            password: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["RecoveryCodes"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/activate/resend": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Mails a new activation link when the address belongs to an account waiting for activation; the same answer for any address (reset rules, 429).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            email: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/email/verify": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Mails a link to the current address (<base>/verify-email?token=…, 24 h); nothing when already verified.
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/email/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Uses a verification or address-change link: the address is verified, or changed to the new one. 401/40020 bad, used or expired; 409/40032 the new address was taken meanwhile.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            token: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/email": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /**
       * Asks to change the address: a confirmation link to the new address, a notice to the old one; the address changes when the link is used. 400/40069 wrong password (throttled per account: 429 after 6 wrong), 409/40032 address taken; 429 past 6 requests per account or per new address (then a doubling lock).
       *
       * Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            email: string;
            password: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/user/activate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Activates the account with the activation link's token and signs in (like POST /session/token). 401/40020 bad, used or expired.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            token: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Activated"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/authn": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The caller's passkeys, oldest first.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Passkey"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Registration options for a new passkey (discoverable, user verification required). The challenge is valid 5 minutes, once, for the caller only.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PublicKeyCredentialCreationOptionsJSON"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post: {
      /**
       * Stores a passkey from navigator.credentials.create()'s answer to the options of PUT; a notice is mailed. The person confirms it is them with `password` (400/40069 when wrong) or, with two-step on, a current TOTP code `otp` (401/40022); both are throttled (429). 400/40001 when neither is given, or the response is malformed or its challenge, origin or RP ID is wrong.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            response: components["schemas"]["RegistrationResponse"];
            /** what the person calls the passkey */
            name: string;
            password?: string;
            otp?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Passkey"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/authn/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Removes one of the caller's passkeys (404 for anyone else's).
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch: {
      /**
       * Renames one of the caller's passkeys (404 for anyone else's).
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** what the person calls the passkey */
            name: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Passkey"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/session/authn": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Options for signing in with a passkey (discoverable credentials) and the challenge id to send back with the answer (5 minutes, once).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PasskeySignInOptions"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post: {
      /**
       * Signs in with navigator.credentials.get()'s answer, like POST /session/token (device cookie included). 400/40001 when the challenge id is unknown, used or expired, or the response is malformed, foreign (origin, RP ID) or not signed by a registered passkey; 403 banned (40017) or not activated (40018).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            id: string;
            response: components["schemas"]["AuthenticationResponse"];
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PasskeySignedIn"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/identity-providers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Every sign-in provider, oldest first (secrets only as *_set).
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: (components["schemas"]["OidcProvider"] | components["schemas"]["LdapProvider"])[];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Adds an OpenID Connect provider (by issuer: the endpoints come from discovery) or an LDAP directory.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            type: "oidc";
            name: string;
            /** an icon URL or an icon-set name */
            icon?: string | null;
            enabled?: boolean;
            /** https:// (http:// only on a loopback address); discovery finds the endpoints */
            issuer: string;
            client_id: string;
            /** write-only; never returned */
            client_secret?: string;
            /** default "openid email profile" */
            scopes?: string;
            groups_claim?: string | null;
            /** {<claim value or group DN/cn>: <group id>}; the first entry the person holds decides */
            group_map?: {
              [key: string]: number;
            };
            /** values that make the person an administrator */
            admin_values?: string[];
            create_accounts?: boolean;
            link_by_verified_email?: boolean;
            allowed_domains?: string[];
          } | {
            type: "ldap";
            name: string;
            /** an icon URL or an icon-set name */
            icon?: string | null;
            enabled?: boolean;
            /** ldap://host[:port] or ldaps://host[:port] */
            url: string;
            start_tls?: boolean;
            bind_dn?: string;
            /** write-only; never returned */
            bind_password?: string;
            user_base: string;
            /** an LDAP filter with {login}, e.g. (&(objectClass=inetOrgPerson)(uid={login})) */
            user_filter?: string;
            email_attribute?: string;
            name_attribute?: string;
            group_base?: string | null;
            /** an LDAP filter with {dn}, e.g. (member={dn}) */
            group_filter?: string | null;
            /** {<claim value or group DN/cn>: <group id>}; the first entry the person holds decides */
            group_map?: {
              [key: string]: number;
            };
            /** values that make the person an administrator */
            admin_values?: string[];
            create_accounts?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OidcProvider"] | components["schemas"]["LdapProvider"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/identity-providers/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Removes a provider and the identities linked through it.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch: {
      /**
       * Changes a provider; an absent secret keeps the stored one.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name?: string;
            /** an icon URL or an icon-set name */
            icon?: string | null;
            enabled?: boolean;
            /** https:// (http:// only on a loopback address); discovery finds the endpoints */
            issuer?: string;
            client_id?: string;
            /** write-only; never returned */
            client_secret?: string;
            /** default "openid email profile" */
            scopes?: string;
            groups_claim?: string | null;
            /** {<claim value or group DN/cn>: <group id>}; the first entry the person holds decides */
            group_map?: {
              [key: string]: number;
            };
            /** values that make the person an administrator */
            admin_values?: string[];
            create_accounts?: boolean;
            link_by_verified_email?: boolean;
            allowed_domains?: string[];
            /** ldap://host[:port] or ldaps://host[:port] */
            url?: string;
            start_tls?: boolean;
            bind_dn?: string;
            /** write-only; never returned */
            bind_password?: string;
            user_base?: string;
            /** an LDAP filter with {login}, e.g. (&(objectClass=inetOrgPerson)(uid={login})) */
            user_filter?: string;
            email_attribute?: string;
            name_attribute?: string;
            group_base?: string | null;
            /** an LDAP filter with {dn}, e.g. (member={dn}) */
            group_filter?: string | null;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OidcProvider"] | components["schemas"]["LdapProvider"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/admin/identity-providers/{id}/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Tries the provider: discovery and JWKS (OpenID Connect), or bind and search (LDAP); answers what worked, or the server's own error.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ProviderTestResult"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/sso/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Starts "Sign in with <provider>": 302 to the provider (authorization code with PKCE S256, state and nonce) and a cookie that binds the state to this browser. `return_to` is a path on this site (anything else is refused).
       *
       * Auth: none.
       */
      parameters: {
        query?: {
          return_to?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** to the provider */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/sso/{id}/callback": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Where the provider sends the browser back. Checks the single-use state and its browser, then the code exchange and the id_token (iss, aud, exp, nonce, signature against the JWKS with an algorithm allow-list), and answers 302 to the web app with a one-time code (60 s) for POST /session/sso/exchange. A refusal sets no session.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** to the web app */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/sso/exchange": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Turns the callback's one-time code (60 s, once) into {user, token} like password sign-in; code 203 when the account has two-step verification.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            code: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SsoSignedIn"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/sso/end-session": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Where to send the browser to end the provider's session too, for the caller's session when it began at a provider with an end_session_endpoint; null otherwise. The web app asks before DELETE /session/token.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["UpstreamEndSession"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/identities": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The identities linked to the caller's account.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LinkedIdentity"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/identities/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Starts linking the caller's account to an OpenID Connect provider (`:id`): answers the URL to open in this browser (the state is bound to it by a cookie); its callback links the identity and returns to /settings/sign-in.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["IdentityLinkStart"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete: {
      /**
       * Removes a linked identity; 403 when it is the caller's last way to sign in (no password, no passkey, no other identity).
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/sso/{id}/backchannel-logout": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * OpenID Connect Back-Channel Logout 1.0: the provider posts a logout_token (form body); the Cirrus sessions that came from that provider session or subject end.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            /** the logout token (a signed JWT) */
            logout_token: string;
          };
        };
      };
      responses: {
        /** empty body */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Back-Channel Logout 1.0 §2.8: invalid_request (or server_error) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["BackchannelLogoutError"];
          };
        };
        /** Back-Channel Logout 1.0 §2.8: invalid_request (or server_error) */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["BackchannelLogoutError"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/avatar": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Sets your avatar from the picture itself as the body (Content-Type image/jpeg, image/png, image/webp, image/gif, image/avif; at most 10 MiB): cropped to its centred square, resized to 256 pixels and stored as WebP.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "image/jpeg": Blob;
          "image/png": Blob;
          "image/webp": Blob;
          "image/gif": Blob;
          "image/avif": Blob;
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AvatarSet"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete: {
      /**
       * Removes your avatar (back to initials).
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/avatar/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * A person's avatar, a 256-pixel WebP (public: an <img> sends no token).
       *
       * Auth: none.
       */
      parameters: {
        query?: {
          /** the version (avatar_url carries it); the current one is cached for good */
          v?: number;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the avatar (Cache-Control: immutable for the current version, otherwise no-cache; ETag) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "image/webp": Blob;
          };
        };
        /** If-None-Match matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/user": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            email: string;
            password: string;
            nickname?: string;
            group_id?: number;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post: {
      /**
       * Lists users a page at a time, searched by e-mail or nickname and sorted, with storage used and the last sign-in.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            page?: number;
            page_size?: number;
            keyword?: string;
            order_by?: "created_at" | "email" | "nickname";
            order_direction?: "asc" | "desc";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AdminUserPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/user/{id}/reset-password": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Sets a generated password, shown in this answer only, and ends every session of the user.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ResetPassword"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/user/{id}/sign-out": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Ends every session and grant of the user.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/user/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AdminUser"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            nickname?: string;
            group_id?: number;
            status?: "active" | "banned";
            password?: string;
            storage_quota?: number | null;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["User"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/group": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Group"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Creates a group; 409 when the name is taken (case-insensitively).
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name: string;
            is_admin?: boolean;
            storage_quota?: number;
            /** file versions kept per file (default 10); 0 = none */
            max_versions?: number;
            /** days a version is kept after it was replaced (default 30) */
            version_days?: number;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Group"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/group/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Changes a group. 403 when it would take administrator rights from the group of the last active administrators.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: number;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name?: string;
            is_admin?: boolean;
            storage_quota?: number;
            /** file versions kept per file (default 10); 0 = none */
            max_versions?: number;
            /** days a version is kept after it was replaced (default 30) */
            version_days?: number;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Group"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete: {
      /**
       * Deletes an empty group; 409 while it has users (data.user_count) and for the default group for sign-up.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: number;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/summary": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Counts, site facts and the last 30 days of sign-ups and uploads.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AdminSummary"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/oauthClient": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Registers an app; the answer carries its secret, once.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            client: {
              name: string;
              icon: string;
              homepage_url?: string | null;
              description?: string;
              /** exact redirect URIs; 1–20 when grant_types includes authorization_code, may be empty or absent for a device-grant-only app (RFC 8628) */
              redirect_uris?: string[];
              scopes: string[];
              secret?: string;
              is_public?: boolean;
              is_enabled?: boolean;
              refresh_token_ttl?: number | null;
              /** the grants the token endpoint accepts from this app (default: authorization_code, refresh_token): authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code */
              grant_types?: string[];
              /** where an RP-initiated logout may send the browser (exact match); default none */
              post_logout_redirect_uris?: string[];
              /** authorization requests must be pushed first (RFC 9126); default false */
              require_par?: boolean;
              /** every token request must carry a DPoP proof, so every token is sender-constrained (RFC 9449); default false */
              require_dpop?: boolean;
            };
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OAuthClient"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post: {
      /**
       * Lists the registered apps.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            page?: number;
            page_size?: number;
            keyword?: string;
            order_by?: "created_at" | "name";
            order_direction?: "asc" | "desc";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OAuthClientPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/oauthClient/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OAuthClient"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            client: {
              name?: string;
              icon?: string;
              homepage_url?: string | null;
              description?: string;
              /** exact redirect URIs; 1–20 when grant_types includes authorization_code, may be empty or absent for a device-grant-only app (RFC 8628) */
              redirect_uris?: string[];
              scopes?: string[];
              secret?: string;
              is_public?: boolean;
              is_enabled?: boolean;
              refresh_token_ttl?: number | null;
              /** the grants the token endpoint accepts from this app (default: authorization_code, refresh_token): authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code */
              grant_types?: string[];
              /** where an RP-initiated logout may send the browser (exact match); default none */
              post_logout_redirect_uris?: string[];
              /** authorization requests must be pushed first (RFC 9126); default false */
              require_par?: boolean;
              /** every token request must carry a DPoP proof, so every token is sender-constrained (RFC 9449); default false */
              require_dpop?: boolean;
              regenerate_secret?: boolean;
            };
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OAuthClient"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/app/{client_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: optional (a header that fails any check is 401). First-party tokens only (not OAuth application tokens). */
      parameters: {
        query?: never;
        header?: never;
        path: {
          client_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["OAuthAppInfo"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/consent": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * The consent decision for an authorization request (the authorize parameters as JSON, plus approve).
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            response_type?: string;
            client_id?: string;
            redirect_uri?: string;
            scope?: string;
            state?: string;
            code_challenge?: string;
            code_challenge_method?: string;
            nonce?: string;
            prompt?: string;
            response_mode?: string;
            request_uri?: string;
            dpop_jkt?: string;
            approve?: boolean;
            [key: string]: unknown;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ConsentResult"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/pushed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * The parameters a pushed request_uri stands for (RFC 9126 §4), for the authorize page to show; the request_uri stays unused.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            client_id: string;
            request_uri: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PushedAuthorizationRequest"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/grant/{client_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /** Auth: bearer token required. OAuth tokens need UserSecurityInfo.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          client_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/jwks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * RFC 7517 key set of the id_token signing key.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** JSON Web Key Set */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Jwks"];
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/userinfo": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * OIDC Core §5.3 UserInfo (plain JSON).
       *
       * Auth: bearer token required. OAuth tokens need openid.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** OIDC claims of the token's user */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["UserInfo"];
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post: {
      /**
       * OIDC Core §5.3 UserInfo (plain JSON).
       *
       * Auth: bearer token required. OAuth tokens need openid.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** OIDC claims of the token's user */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["UserInfo"];
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/logout/check": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * What the logout page shows: the app, whether to ask, and where the browser goes afterwards. Send the browser's Cirrus token, if any.
       *
       * Auth: optional (a header that fails any check is 401). First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            id_token_hint?: string;
            post_logout_redirect_uri?: string;
            state?: string;
            client_id?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LogoutView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/logout": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Ends the app's session family named by id_token_hint (RP-Initiated Logout 1.0); the page ends the browser's own session. Answers where to go next.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            id_token_hint?: string;
            post_logout_redirect_uri?: string;
            state?: string;
            client_id?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LogoutResult"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/device/verify": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * The device request a user code names (RFC 8628 §3.3). Wrong codes are counted per user and address; past the allowance 429.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** XXXX-XXXX; case, spaces and dashes do not matter */
            user_code: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["DeviceRequest"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/device/consent": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * The person approves or denies a device request; the device then gets tokens, or access_denied, at its next poll.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** XXXX-XXXX; case, spaces and dashes do not matter */
            user_code: string;
            approve: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["DeviceDecision"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * RFC 6749 §3.2 token endpoint: authorization_code (PKCE, RFC 7636), refresh_token and device_code (RFC 8628) grants, as each app's grant_types allow. Form body; answers carry Cache-Control: no-store. An optional DPoP header (RFC 9449 §5) binds the tokens to its key.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            /** authorization_code | refresh_token | urn:ietf:params:oauth:grant-type:device_code */
            grant_type: string;
            /** authorization_code */
            code?: string;
            /** authorization_code: as in the authorization request */
            redirect_uri?: string;
            /** authorization_code: RFC 7636 */
            code_verifier?: string;
            /** refresh_token */
            refresh_token?: string;
            /** urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4) */
            device_code?: string;
            /** refresh_token: a subset of the granted scopes */
            scope?: string;
            /** client_secret_post / public clients (or HTTP Basic) */
            client_id?: string;
            /** client_secret_post (or HTTP Basic) */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** RFC 6749 §5.1 access token response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthTokenResponse"];
          };
        };
        /** invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** invalid_client (WWW-Authenticate: Basic when Basic was used) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** temporarily_unavailable: client authentication throttled; Retry-After */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** server_error */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/device_authorization": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * RFC 8628 §3.1 device authorization request (client authentication as at the token endpoint; public clients send client_id).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            /** space-separated scopes */
            scope: string;
            /** client_secret_post / public clients (or HTTP Basic) */
            client_id?: string;
            /** client_secret_post (or HTTP Basic) */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** RFC 8628 §3.2 device authorization response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthDeviceAuthorization"];
          };
        };
        /** invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** invalid_client (WWW-Authenticate: Basic when Basic was used) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** temporarily_unavailable: client authentication throttled; Retry-After */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** server_error */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/par": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * RFC 9126 pushed authorization request: the authorization request parameters, with client authentication; answers 201. An optional DPoP header (RFC 9449 §10.1) binds the authorization code to its key.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            response_type: string;
            redirect_uri: string;
            scope: string;
            /** returned unchanged */
            state?: string;
            /** RFC 7636 */
            code_challenge?: string;
            /** S256 */
            code_challenge_method?: string;
            /** OIDC */
            nonce?: string;
            /** consent | none */
            prompt?: string;
            /** RFC 9449 §10: the JWK thumbprint of the DPoP key the code exchange must prove; a DPoP header on this request binds the same way (both: they must match) */
            dpop_jkt?: string;
            /** client_secret_post / public clients (or HTTP Basic) */
            client_id?: string;
            /** client_secret_post (or HTTP Basic) */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** RFC 9126 §2.2 pushed authorization response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthPushedAuthorizationResponse"];
          };
        };
        /** invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** invalid_client (WWW-Authenticate: Basic when Basic was used) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** temporarily_unavailable: client authentication throttled; Retry-After */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** server_error */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * RFC 7009 token revocation: 200 with an empty body, also for unknown tokens.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            token: string;
            /** ignored: tokens are self-describing */
            token_type_hint?: string;
            /** client_secret_post / public clients (or HTTP Basic) */
            client_id?: string;
            /** client_secret_post (or HTTP Basic) */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** empty body */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** invalid_client (WWW-Authenticate: Basic when Basic was used) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** temporarily_unavailable: client authentication throttled; Retry-After */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** server_error */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/session/oauth/introspect": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * RFC 7662 token introspection, for tokens issued to the authenticated client.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/x-www-form-urlencoded": {
            token: string;
            /** ignored */
            token_type_hint?: string;
            /** client_secret_post / public clients (or HTTP Basic) */
            client_id?: string;
            /** client_secret_post (or HTTP Basic) */
            client_secret?: string;
          };
        };
      };
      responses: {
        /** RFC 7662 §2.2 introspection response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthIntrospection"];
          };
        };
        /** invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client; invalid_dpop_proof and use_dpop_nonce (with DPoP-Nonce) at the token endpoint (RFC 9449) */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** invalid_client (WWW-Authenticate: Basic when Basic was used) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** temporarily_unavailable: client authentication throttled; Retry-After */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
        /** server_error */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["OAuthErrorBody"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Lists a folder a page at a time, folders first, sorted by name (default), size or last change.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          path?: string;
          page_size?: number;
          next_page_token?: string;
          /** default name */
          order_by?: "name" | "size" | "updated_at";
          /** default asc */
          order?: "asc" | "desc";
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FolderPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      /**
       * Moves to the trash (or deletes for good with permanent); per-item results.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            paths: string[];
            permanent?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["BatchPathResults"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/info": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Files.Read. */
      parameters: {
        query?: {
          path?: string;
          id?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/exists": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Checks which paths are taken, always with 200 (the upload dialog's name check: no 404 per missing name). A path that is not valid (e.g. a name with "\") gets code 40001 and the reason, the others their answer.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            paths: string[];
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ExistsResults"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/create": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            type: "file" | "folder";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/rename": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            new_name: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/move": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Moves or copies; per-item results. When every item fails, the first item's error is the answer, with the results in data.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            paths: string[];
            dst: string;
            copy?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["BatchPathResultWithFiles"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/capacity": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Files.Read. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Capacity"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/search": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Files and folders whose name contains q (case-insensitive, any script), and documents whose text matches it (words ANDed, "a phrase" in order, -word excluded), not trashed, a page at a time in name order.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          q: string;
          /** name: names only; content: text inside documents only; all (default): either */
          scope?: "name" | "content" | "all";
          /** only items of this kind (document: text, word processing, spreadsheets, presentations) */
          type?: "folder" | "document" | "pdf" | "image" | "video" | "audio";
          /** RFC 3339, UTC */
          modified_after?: string;
          page_size?: number;
          next_page_token?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SearchPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/thumb": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * A WebP thumbnail of a picture (JPEG, PNG, WebP, GIF, AVIF, TIFF, BMP, HEIC/HEIF), a video (a frame from about 10 % in), a PDF (page one) or a song (its cover art), at most `size` on its longer side (rounded up to 64/128/256/512/1024). 202 with Retry-After while it is being made; 404 when this file has none (no cover art, unreadable, its tool not installed: remembered, not retried at every view); 400 for folders, other types and unreadable raster images; 413 for sources over 50 MiB or 50 Mpx.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          path: string;
          size?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the thumbnail; ETag, Cache-Control: private, max-age=86400 */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "image/webp": Blob;
          };
        };
        /** Success: code 0, the answer in data */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** If-None-Match matched the ETag */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/trash": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Files.Read. */
      parameters: {
        query?: {
          page_size?: number;
          next_page_token?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TrashPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TrashEmptied"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/trash/restore": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            ids: string[];
            /** when the original name is taken: rename (default) restores as "name (1)", fail answers 409 for that item, replace moves the item in the way to the trash */
            on_conflict?: "rename" | "fail" | "replace";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["BatchIdResultWithFiles"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/trash/delete": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            ids: string[];
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["BatchIdResults"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/versions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The versions of a file, newest first; the first is the current content (`current: true`).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileVersion"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/versions/{id}/content": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * A version's bytes (Range, ETag, conditional requests as for /file/content).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head: {
      /**
       * A version's bytes (Range, ETag, conditional requests as for /file/content).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/versions/restore": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Makes a version the current content; the current content becomes a version.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            version_id: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/versions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Deletes a version for good; its bytes stop counting toward the quota at once. Only the file's owner may (a recipient gets 403).
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["VersionDeleted"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/content": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Files.Read. */
      parameters: {
        query: {
          path: string;
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Creates or overwrites a file from the raw request body (any Content-Type); parents are created.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "*/*": Blob;
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileView"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** The request body stopped arriving (no data for 60 s) */
        408: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head: {
      /** Auth: bearer token required. OAuth tokens need Files.Read. */
      parameters: {
        query: {
          path: string;
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/archive": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * A folder as a zip archive (stored, streamed).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the folder as a ZIP (stored entries, ZIP64 where needed) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/zip": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post: {
      /**
       * Several files and folders as one zip archive (stored, streamed); names that collide get " (2)".
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            paths: string[];
            name?: string;
          };
        };
      };
      responses: {
        /** the items as a ZIP (stored entries, ZIP64 where needed) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/zip": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head: {
      /**
       * A folder as a zip archive (stored, streamed).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the folder as a ZIP (stored entries, ZIP64 where needed) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/zip": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/archive/url": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * A signed URL that downloads several items as one zip archive without an Authorization header until it expires (a browser navigates to it).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            paths: string[];
            name?: string;
            expires_in?: number;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SignedUrl"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/archive/signed/{name}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: none. */
      parameters: {
        query: {
          owner: string;
          ids: string;
          expires: number;
          sig: string;
        };
        header?: never;
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the items as a ZIP (stored entries, ZIP64 where needed) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/zip": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head: {
      /** Auth: none. */
      parameters: {
        query: {
          owner: string;
          ids: string;
          expires: number;
          sig: string;
        };
        header?: never;
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the items as a ZIP (stored entries, ZIP64 where needed) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/zip": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/url": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * A signed URL that downloads the file without an Authorization header until it expires.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            expires_in?: number;
            inline?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SignedUrl"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/signed/{id}/{name}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: none. */
      parameters: {
        query: {
          expires: number;
          sig: string;
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path: {
          id: string;
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head: {
      /** Auth: none. */
      parameters: {
        query: {
          expires: number;
          sig: string;
          inline?: "1" | "true" | "0" | "false";
        };
        header?: never;
        path: {
          id: string;
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the bytes (Range, ETag, Last-Modified; HEAD: headers only) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** the requested range */
        206: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": Blob;
          };
        };
        /** Location: a presigned URL of the object store, valid 5 minutes (only with CIRRUS_S3_PRESIGNED_DOWNLOADS) */
        302: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** If-None-Match or If-Modified-Since matched */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Range not satisfiable (Content-Range: bytes *\/size) */
        416: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/upload": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * tus 1.0 creation (Upload-Length, Upload-Metadata with filename and path)
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Location of the upload */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options: {
      /**
       * tus 1.0 discovery
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Tus-Version, Tus-Extension */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/upload/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * tus 1.0 termination
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** terminated */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options: {
      /**
       * tus 1.0 discovery
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Tus-Version, Tus-Extension */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    head: {
      /** Auth: bearer token required. OAuth tokens need Files.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Upload-Offset, Upload-Length */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Locked: another live request is writing or finishing this upload; retry */
        423: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch: {
      /**
       * tus 1.0: appends bytes at Upload-Offset (Content-Type application/offset+octet-stream)
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/offset+octet-stream": Blob;
        };
      };
      responses: {
        /** Upload-Offset */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** The request body stopped arriving (no data for 60 s) */
        408: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Locked: another live request is writing or finishing this upload; retry */
        423: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/file/changes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The change feed as pages: the events after `cursor`; without one, the current cursor and no events (start from now).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          /** a cursor this feed handed out (opaque) */
          cursor?: string;
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileChangesPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The change feed as Server-Sent Events. Each event: `id:` its cursor, `data:` a FileEvent. `Last-Event-ID` (or `last_event_id`) replays what followed it; a cursor older than the 7 days kept gets an event `reset` (list again). A comment every 30 s keeps it open; it ends (event `end`) when the token expires or is revoked. One account holds at most 50 streams on an instance and one token 20 (configurable); beyond, 429 with Retry-After.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          /** a cursor this feed handed out (opaque) */
          last_event_id?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** text/event-stream */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "text/event-stream": Blob;
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/search/status": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * How many documents are indexed, waiting and failed, and the latest failures.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SearchStatus"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/search/reindex": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Extracts the text of every document again (or of one person's); the old text answers searches until replaced.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            /** Only this person's files; all files when absent */
            user_id?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SearchReindex"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/media/status": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Thumbnail and metadata kinds (on, or off with the tools and Debian package to install) and blobs by state.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["MediaStatus"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/photos": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The person's pictures and videos, newest taken first (without a date taken: by when the content was first stored), keyset-paged by `cursor`.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          cursor?: string;
          page_size?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PhotoPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/photos/places": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The person's geotagged pictures and videos (at most 50,000), for a map.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PhotoPlace"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/access/suggest": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * People and groups the user may share with, for the share dialog's recipient field: people of the user's own group whose e-mail or nickname starts with `q`, and anyone else only by their exact e-mail or UID (the grant's rule, so nothing beyond it is listed); groups whose name starts with `q` (only one's own with share_with: groups). At most 8 of each. 429 after 200 exact lookups in an hour.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query: {
          q: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["RecipientSuggestions"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/access": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Who has access to a file or folder (its owner asks).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileAccessGrant"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Gives a user (e-mail or UID) or a group read or write access to a file or folder; a second grant to the same recipient changes the permission. 429 after 100 grants in an hour.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            user?: string;
            group?: number;
            permission: "read" | "write";
            reshare?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["FileAccessGrant"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/access/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Revokes a grant at once, on every instance.
       *
       * Auth: bearer token required. OAuth tokens need Files.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/access/given": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * "Shared by me": every grant on the user's own items (and those they made as a resharer), newest first, at most 1000, each with its item. Change a permission with PUT /file/access, revoke with DELETE /file/access/:id.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["GivenGrant"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/shared": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * What others shared with the user, oldest grant first.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SharedWithMeItem"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/file/shared/seen": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Marks everything shared so far as seen (the web app's badge).
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/team-folder": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Team folders, oldest first; with group_id, only that group's.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: {
          group_id?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolder"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Creates a team folder owned by a group, with its own quota. 409 when the group has one of that name.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            group_id: number;
            name: string;
            /** bytes */
            storage_quota: number;
            permission?: "read" | "write";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolder"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/team-folder/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolder"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Renames a team folder, changes its quota or the group's permission.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name?: string;
            /** bytes */
            storage_quota?: number;
            permission?: "read" | "write";
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolder"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete: {
      /**
       * Deletes a team folder and every file in it, for good.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/team-folder/{id}/member": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The per-member overrides.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolderOverride"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/team-folder/{id}/member/{user}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      /**
       * Sets one member's permission (read, write, or none: the folder is hidden from them); null removes the override. Answers all overrides.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          user: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            permission: "read" | "write" | "none" | null;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["TeamFolderOverride"][];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/{id}/uploads": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Upload requests: the files received through the link, newest first, with the name each uploader gave.
       *
       * Auth: bearer token required. OAuth tokens need Shares.Read.
       */
      parameters: {
        query?: {
          page_size?: number;
          next_page_token?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ReceivedFilePage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/{id}/uploads/pending": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Upload requests: the uploads in flight through the link (oldest first, at most 1000), with the bytes of the owner's quota each holds and has received.
       *
       * Auth: bearer token required. OAuth tokens need Shares.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PendingUploadList"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/{id}/uploads/pending/{upload}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Upload requests: cancels an upload in flight through the link; its bytes and its reservation of the owner's quota go at once.
       *
       * Auth: bearer token required. OAuth tokens need Shares.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          upload: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Shares.Read. */
      parameters: {
        query?: {
          path?: string;
          page_size?: number;
          next_page_token?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SharePage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Shares a file or folder by path.
       *
       * Auth: bearer token required. OAuth tokens need Shares.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            path: string;
            password?: string;
            expires_at?: string;
            expires_in?: number;
            download_limit?: number;
            /** an upload request (folders only): people with the link send files in and see nothing of the folder */
            upload_only?: boolean;
            max_file_size?: number;
            max_files?: number;
            /** tell the owner of each download (a link_downloaded notification) */
            notify_downloads?: boolean;
            /** send pictures (alone or in a folder ZIP) without their location (EXIF GPS, XMP places), refusing TIFF and camera raw ones; default true */
            strip_location?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Share"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: bearer token required. OAuth tokens need Shares.Read. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Share"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      /** Auth: bearer token required. OAuth tokens need Shares.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch: {
      /** Auth: bearer token required. OAuth tokens need Shares.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            password?: string | null;
            expires_at?: string | null;
            expires_in?: number;
            download_limit?: number | null;
            max_file_size?: number | null;
            max_files?: number | null;
            /** tell the owner of each download (a link_downloaded notification) */
            notify_downloads?: boolean;
            /** send pictures (alone or in a folder ZIP) without their location (EXIF GPS, XMP places), refusing TIFF and camera raw ones; default true */
            strip_location?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Share"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/admin/share": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Lists every share a page at a time, searched by the owner's e-mail or nickname, the item's name or the share id, sorted, optionally of one owner.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read, Shares.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            page?: number;
            page_size?: number;
            keyword?: string;
            order_by?: "created_at" | "item" | "owner" | "views" | "downloads" | "expires_at";
            order_direction?: "asc" | "desc";
            user_id?: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AdminSharePage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/share/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /** Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write, Shares.Write. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/info/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * What a share page shows (name and size withheld until a password-protected share is unlocked).
       *
       * Auth: none.
       */
      parameters: {
        query?: {
          token?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["PublicShare"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/unlock/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /** Auth: none. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            password: string;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ShareUnlock"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too many requests (429); Retry-After says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/list/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /** Auth: none. */
      parameters: {
        query?: {
          path?: string;
          token?: string;
          page_size?: number;
          next_page_token?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["SharedFolderPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/upload/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Upload requests: tus 1.0 creation without an account (Upload-Length; Upload-Metadata filename, optional uploader; X-Share-Token when the link has a password). The file never overwrites: a clash gets a new name.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Location of the upload */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options: {
      /**
       * tus 1.0 discovery (upload requests)
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Tus-Version, Tus-Extension */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/share/upload/{id}/{upload}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Upload requests: tus 1.0 termination (frees the upload's slot)
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          upload: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** terminated */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options: {
      /**
       * tus 1.0 discovery (upload requests)
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          upload: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Tus-Version, Tus-Extension */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    head: {
      /** Auth: none. */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          upload: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Upload-Offset, Upload-Length */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Locked: another live request is writing or finishing this upload; retry */
        423: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    patch: {
      /**
       * Upload requests: tus 1.0, appends bytes at Upload-Offset. Refused once the link expired, was deleted or its owner banned.
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          upload: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/offset+octet-stream": Blob;
        };
      };
      responses: {
        /** Upload-Offset */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** The request body stopped arriving (no data for 60 s) */
        408: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which) */
        412: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Locked: another live request is writing or finishing this upload; retry */
        423: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/devices/dav": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Lists the WebDAV accounts of the signed-in person (app passwords of sync clients included), with when each was last used and by which client.
       *
       * Auth: bearer token required. OAuth tokens need DavAccount.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["DavAccountList"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put: {
      /**
       * Creates a WebDAV account; the generated password is in this answer only.
       *
       * Auth: bearer token required. OAuth tokens need DavAccount.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name: string;
            path?: string;
            readonly?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["NewDavAccount"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/devices/dav/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      /**
       * Deletes a WebDAV account: its device is cut off at once.
       *
       * Auth: bearer token required. OAuth tokens need DavAccount.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch: {
      /**
       * Changes a WebDAV account; regenerate_password returns a new password once.
       *
       * Auth: bearer token required. OAuth tokens need DavAccount.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            name?: string;
            path?: string;
            readonly?: boolean;
            regenerate_password?: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ChangedDavAccount"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/sync/login-flows/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * A sync client's sign-in request (Login Flow v2/v1) that is waiting for the person: the client it names.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LoginFlow"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      /**
       * Declines a sync client's sign-in request: the flow ends.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: null;
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/sync/login-flows/{id}/grant": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Grants a sync client's sign-in request: a WebDAV account named after the client is made, and its password goes to the client once.
       *
       * Auth: bearer token required. First-party tokens only (not OAuth application tokens).
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["LoginFlowGrant"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Conflict (409), e-mail taken (40032) */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/site/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Instance health for load balancers and monitors: 200 when it can serve, 503 when a part fails (no error details).
       *
       * Auth: none.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Every part answers */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Health"];
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** A part fails (status error) */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Health"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/audit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The audit log, newest first; `cursor` (from the previous page) pages to older rows. Filters combine.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: {
          /** an action name, or a prefix ending in "." (session. matches every session event) */
          action?: string;
          /** the UID of the actor */
          actor?: string;
          /** RFC 3339; events at or after */
          since?: string;
          /** RFC 3339; events at or before */
          until?: string;
          cursor?: string;
          page_size?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AuditPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/audit/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Every matching row, oldest first (the chain's order), streamed: one JSON object a line (jsonl) or CSV with a header line (csv).
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: {
          /** an action name, or a prefix ending in "." (session. matches every session event) */
          action?: string;
          /** the UID of the actor */
          actor?: string;
          /** RFC 3339; events at or after */
          since?: string;
          /** RFC 3339; events at or before */
          until?: string;
          format?: "jsonl" | "csv";
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** the rows */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/x-ndjson": Blob;
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/admin/audit/verify": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Walks the hash chain: ok, how many rows were checked, and the seq of the first row changed or missing.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["AuditVerification"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/notifications": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * The notifications shown in the app, newest first, and how many are unread.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Read.
       */
      parameters: {
        query?: {
          /** a cursor this list handed out */
          cursor?: string;
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["NotificationPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/notifications/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /**
       * Marks one notification read or unread. Another person's notification is 404.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            read: boolean;
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["Notification"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/notifications/read-all": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Marks every notification read.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["NotificationsRead"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/notifications/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * New notifications as Server-Sent Events (`event: notification`, `data:` a Notification, `id:` a cursor), on every instance. `Last-Event-ID` (or `last_event_id`) replays what followed it. A comment every 30 s keeps it open; it ends (event `end`) when the token expires or is revoked. The same per-account and per-token stream caps as the change feed (429 with Retry-After beyond).
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Read.
       */
      parameters: {
        query?: {
          last_event_id?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** text/event-stream */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "text/event-stream": Blob;
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/user/setting/notifications": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * Notification preferences: per kind, shown in the app and how it is mailed.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Read.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["NotificationPreferences"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: {
      /**
       * Changes notification preferences: any kinds, any of `web` and `email`; answers all of them.
       *
       * Auth: bearer token required. OAuth tokens need UserInfo.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": {
            shared_with_me?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            upload_request_received?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            link_downloaded?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            quota_almost_full?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            new_device_sign_in?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            app_authorized?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
            security_change?: {
              web?: boolean;
              email?: "off" | "instant" | "daily";
            };
          };
        };
      };
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["NotificationPreferences"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Too large (40049) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Unsupported Content-Type (40001) */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    trace?: never;
  };
  "/api/v4/admin/notifications/digest": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      /**
       * Sends every pending daily digest now.
       *
       * Auth: bearer token required. Administrators only. OAuth tokens need Admin.Write.
       */
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["DigestsSent"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v4/activity": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      /**
       * What happened, newest first: everything the reader can read now, or the history of the item at `path` (followed by id through renames; a folder's includes what happened beneath it). A path the reader cannot read is 404, as for /file/info. Filters combine.
       *
       * Auth: bearer token required. OAuth tokens need Files.Read.
       */
      parameters: {
        query?: {
          path?: string;
          /** the `cursor` of the previous page */
          cursor?: string;
          /** one type or several, comma-separated */
          type?: string;
          /** the UID of the person who acted */
          actor?: string;
          /** RFC 3339; events at or after */
          since?: string;
          page_size?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** Success: code 0, the answer in data */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              code: 0;
              data: components["schemas"]["ActivityPage"];
              msg: string;
            };
          };
        };
        /** Invalid input (40001: msg names the field); 40069 wrong current password */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Missing or invalid token (401), or a credential that failed (40020, 40022, 40080) */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Not found (also for objects that belong to someone else) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
        /** Internal error (50000); details only in the log */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["ErrorEnvelope"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

export interface components {
  schemas: {
    Activated: {
      user: components["schemas"]["User"];
      token: components["schemas"]["TokenPair"];
    };
    ActivityAnonymous: {
      anonymous: true;
      /** the name an upload-request uploader gave */
      name?: string;
    };
    ActivityEvent: {
      /** this event; as `cursor`, the page after it */
      id: string;
      /** RFC 3339, UTC */
      at: string;
      actor: components["schemas"]["ActivityPerson"] | components["schemas"]["ActivityAnonymous"];
      type: "created" | "modified" | "moved" | "deleted" | "restored" | "version_restored" | "shared" | "unshared" | "link_downloaded" | "link_uploaded";
      /** the item as the reader addressed it then (deleted: where it was) */
      path: string;
      /** moved: where it was, when the reader could see that place */
      old_path?: string;
      file_id: string;
    };
    ActivityPage: {
      items: components["schemas"]["ActivityEvent"][];
      /** the next (older) page; null at the end */
      cursor: string | null;
    };
    ActivityPerson: {
      id: string;
      /** empty when the account no longer exists */
      nickname: string;
    };
    AdminShare: {
      id: string;
      /** the public link, /s/:id */
      url: string;
      /** the shared item's current path in the owner's tree; null while it is in the trash */
      path: string | null;
      type: "file" | "folder" | null;
      name: string | null;
      has_password: boolean;
      expires_at: string | null;
      download_limit: number | null;
      downloads: number;
      views: number;
      status: "active" | "expired" | "exhausted" | "unavailable";
      /** an upload request: people with the link send files into the folder and see nothing of it */
      upload_only: boolean;
      /** upload requests: the largest file accepted, in bytes */
      max_file_size: number | null;
      /** upload requests: how many files the link accepts in all */
      max_files: number | null;
      /** upload requests: files received through the link (GET /api/v4/share/:id/uploads lists them) */
      uploads: number;
      /** each download notifies the owner (link_downloaded) */
      notify_downloads: boolean;
      /** pictures go out through the link (alone or in a folder ZIP) without their location (EXIF GPS, XMP places); TIFF and camera raw pictures are refused; true unless the owner turned it off */
      strip_location: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      owner: components["schemas"]["ShareOwner"] | null;
    };
    AdminSharePage: {
      shares: components["schemas"]["AdminShare"][];
      pagination: components["schemas"]["Pagination"];
    };
    AdminSummary: {
      users: number;
      files: number;
      /** bytes */
      storage_used: number;
      shares: number;
      oauth_apps: number;
      active_sessions: number;
      version: string;
      database: "sqlite" | "postgres";
      storage_driver: string;
      days: components["schemas"]["SummaryDay"][];
    };
    AdminUser: {
      /** The UID (the tokens' sub) */
      id: string;
      email: string;
      nickname: string;
      status: "active" | "banned" | "inactive";
      /** RFC 3339, UTC */
      created_at: string;
      group: components["schemas"]["UserGroup"];
      is_admin: boolean;
      two_fa_enabled: boolean;
      /** a link mailed to this address was used (activation, reset or verification) */
      email_verified: boolean;
      /** Same-origin path of the avatar (256-pixel WebP, versioned), or null for initials */
      avatar_url: string | null;
      /** the user's own quota in bytes; null: the group's */
      storage_quota: number | null;
      /** bytes */
      group_storage_quota: number;
      /** bytes */
      storage_used: number;
      /** RFC 3339, UTC; null: never */
      last_sign_in_at: string | null;
    };
    AdminUserPage: {
      users: components["schemas"]["AdminUser"][];
      pagination: components["schemas"]["Pagination"];
    };
    AuditEvent: {
      seq: number;
      /** RFC 3339, UTC */
      at: string;
      /** the UID of who acted; absent when nobody was signed in (a failed sign-in) */
      actor_id?: string;
      ip: string;
      user_agent: string;
      /** the server instance that recorded the event */
      instance: string;
      /** a dotted name: session.sign_in, admin.user_created, … (docs/api.md) */
      action: string;
      target_type: string;
      target_id: string;
      /** an object; never a secret */
      detail: unknown;
      /** hex SHA-256 over the previous row's hash and this row */
      hash: string;
    };
    AuditPage: {
      items: components["schemas"]["AuditEvent"][];
      /** the next (older) page; null at the end */
      cursor: string | null;
    };
    AuditVerification: {
      ok: boolean;
      checked: number;
      first_bad_seq?: number;
    };
    AuthenticationResponse: {
      id: string;
      rawId: string;
      type: "public-key";
      response: {
        clientDataJSON: string;
        authenticatorData: string;
        signature: string;
        userHandle?: string;
      };
      authenticatorAttachment?: string;
      clientExtensionResults: {
        [key: string]: unknown;
      };
    };
    AvatarSet: {
      /** same-origin path of the new version */
      avatar_url: string;
    };
    BackchannelLogoutError: {
      error: string;
      error_description: string;
    };
    BatchIdResult: {
      id: string;
      /** 0, or the error code of this item */
      code: number;
      msg: string;
    };
    BatchIdResults: {
      results: components["schemas"]["BatchIdResult"][];
    };
    BatchIdResultWithFile: {
      id: string;
      /** 0, or the error code of this item */
      code: number;
      msg: string;
      file?: components["schemas"]["FileView"];
    };
    BatchIdResultWithFiles: {
      results: components["schemas"]["BatchIdResultWithFile"][];
    };
    BatchPathResult: {
      path: string;
      /** 0, or the error code of this item */
      code: number;
      msg: string;
    };
    BatchPathResults: {
      results: components["schemas"]["BatchPathResult"][];
    };
    BatchPathResultWithFile: {
      path: string;
      /** 0, or the error code of this item */
      code: number;
      msg: string;
      file?: components["schemas"]["FileView"];
    };
    BatchPathResultWithFiles: {
      results: components["schemas"]["BatchPathResultWithFile"][];
    };
    Capacity: {
      /** bytes, versions included */
      used: number;
      /** bytes */
      total: number;
      /** bytes of file versions (part of used) */
      versions: number;
      /** bytes held by uploads in flight (yours and those through your upload links), not part of used; what is free is total - used - reserved */
      reserved: number;
    };
    ChangedDavAccount: {
      id: string;
      name: string;
      /** The folder the account sees as /dav/ */
      path: string;
      readonly: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      /** RFC 3339, UTC: when a client last used the account (recorded at most once a minute); null if never */
      last_seen_at: string | null;
      /** The User-Agent of the client that last used it (a sync client's names the app and system); null if never */
      client: string | null;
      /** Present only when regenerate_password was true */
      password?: string;
    };
    ConsentResult: {
      /** where to navigate: the code, or an error, in its query */
      redirect_uri: string;
      code?: string;
      state?: string | null;
    };
    DavAccount: {
      id: string;
      name: string;
      /** The folder the account sees as /dav/ */
      path: string;
      readonly: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      /** RFC 3339, UTC: when a client last used the account (recorded at most once a minute); null if never */
      last_seen_at: string | null;
      /** The User-Agent of the client that last used it (a sync client's names the app and system); null if never */
      client: string | null;
    };
    DavAccountList: {
      accounts: components["schemas"]["DavAccount"][];
    };
    DeviceDecision: {
      approved: boolean;
    };
    DeviceRequest: {
      /** normalised: XXXX-XXXX */
      user_code: string;
      scopes: string[];
      app: components["schemas"]["OAuthAppInfo"];
    };
    DigestsSent: {
      sent: number;
    };
    /** Envelope codes (api-contract §1): 0 success, 203 second factor required, the rest errors */
    ErrorCode: 0 | 40001 | 401 | 403 | 40089 | 40017 | 40018 | 404 | 409 | 40020 | 40022 | 40080 | 40069 | 40032 | 40019 | 40049 | 429 | 50000 | 203;
    ErrorEnvelope: {
      /** Contract code (components.schemas.ErrorCode) */
      code: number;
      /** null, or details (e.g. the per-item results of a batch) */
      data: unknown;
      msg: string;
    };
    ExistsResult: {
      path: string;
      exists: boolean;
      /** 'file' or 'folder' when it exists */
      type: string | null;
      /** 0, or 40001 when the path is not a valid path (msg says why) */
      code: number;
      msg: string;
    };
    ExistsResults: {
      results: components["schemas"]["ExistsResult"][];
    };
    FileAccessGrant: {
      id: string;
      user?: components["schemas"]["GrantUser"];
      group?: components["schemas"]["GrantGroup"];
      permission: "read" | "write";
      /** the recipient may share the item in turn (with at most their permission) */
      reshare: boolean;
      created_at: string;
    };
    FileChangesPage: {
      events: components["schemas"]["FileEvent"][];
      /** give it back to get what follows */
      cursor: string;
      has_more: boolean;
      /** the cursor was older than the 7 days kept: list the tree again, then go on from `cursor` */
      reset: boolean;
    };
    FileEvent: {
      /** the cursor just after this event (opaque, increasing) */
      id: string;
      type: "created" | "modified" | "moved" | "deleted" | "restored";
      /** where the item is now (deleted: where it was) */
      path: string;
      /** moved: where it was */
      old_path?: string;
      file_id: string;
      /** a folder: created/restored ones may hold items, list them; deleted/moved ones take their subtree along */
      is_dir: boolean;
      /** files: bytes after the change */
      size?: number;
      /** RFC 3339, UTC */
      at: string;
    };
    FileVersion: {
      /** a version id; for the current content, the file's id */
      id: string;
      /** bytes */
      size: number;
      mime_type: string | null;
      /** RFC 3339, UTC */
      created_at: string;
      /** when it stopped being current (null for the current content); retention counts from here */
      replaced_at: string | null;
      current: boolean;
      source: components["schemas"]["VersionSource"];
      /** who wrote this content: the person's nickname, or their e-mail without one; null when unknown (written before authors were recorded, through an upload link, or the account is gone) */
      author: string | null;
    };
    FileView: {
      id: string;
      name: string;
      path: string;
      type: "file" | "folder";
      /** bytes; 0 for folders */
      size: number;
      /** null for folders */
      mime_type: string | null;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      media?: components["schemas"]["MediaInfo"];
      team_folder?: components["schemas"]["TeamFolderMark"];
    };
    FolderPage: {
      files: components["schemas"]["FileView"][];
      /** null on the last page */
      next_page_token: string | null;
      parent: components["schemas"]["FileView"];
    };
    GivenGrant: {
      id: string;
      user?: components["schemas"]["GrantUser"];
      group?: components["schemas"]["GrantGroup"];
      permission: "read" | "write";
      /** the recipient may share the item in turn (with at most their permission) */
      reshare: boolean;
      created_at: string;
      item: components["schemas"]["GrantedItem"];
    };
    GpsPoint: {
      lat: number;
      lon: number;
    };
    GrantedItem: {
      id: string;
      name: string;
      type: "file" | "folder";
      /** where the person finds it (their own path, or /Shared with me/… for a reshare); null while it is in the trash */
      path: string | null;
    };
    GrantGroup: {
      id: number;
      name: string;
    };
    GrantUser: {
      id: string;
      email: string;
      nickname: string;
    };
    Group: {
      id: number;
      name: string;
      is_admin: boolean;
      /** bytes; 0 = no storage */
      storage_quota: number;
      /** file versions kept per file; 0 = none */
      max_versions: number;
      /** days a version is kept after it was replaced */
      version_days: number;
      user_count: number;
      /** RFC 3339, UTC */
      created_at: string;
    };
    Health: {
      /** error when any part below is error (the answer is then 503) */
      status: "ok" | "error";
      /** the database answers */
      database: "ok" | "error" | "disabled";
      /** the file storage answers */
      storage: "ok" | "error" | "disabled";
      /** disabled without CIRRUS_REDIS_URL */
      redis: "ok" | "error" | "disabled";
      /** error when revocations were last read more than 5000 ms ago */
      revocation: "ok" | "error" | "disabled";
      /** how long ago revocations were last read */
      revocation_lag_ms: number;
      /** background jobs by name; a failing job is reported but does not fail the instance */
      jobs: {
        [key: string]: components["schemas"]["JobHealth"];
      };
    };
    IdentityLinkStart: {
      url: string;
    };
    JobHealth: {
      /** failing: its last run failed */
      state: "ok" | "failing";
      /** failed runs since start-up */
      failures: number;
      /** RFC 3339, UTC; null: none yet */
      last_success_at: string | null;
      /** RFC 3339, UTC; null: none yet */
      last_failure_at: string | null;
    };
    Jwk: {
      kty: string;
      crv?: string;
      x?: string;
      y?: string;
      kid?: string;
      alg?: string;
      use?: string;
    };
    Jwks: {
      keys: components["schemas"]["Jwk"][];
    };
    LdapProvider: {
      type: "ldap";
      id: string;
      name: string;
      icon: string | null;
      enabled: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      group_map: {
        [key: string]: number;
      };
      admin_values: string[];
      create_accounts: boolean;
      url: string;
      start_tls: boolean;
      bind_dn: string;
      /** whether a bind password is stored (write-only) */
      bind_password_set: boolean;
      user_base: string;
      user_filter: string;
      email_attribute: string;
      name_attribute: string;
      group_base: string | null;
      group_filter: string | null;
    };
    LinkCheck: {
      valid: boolean;
    };
    LinkedIdentity: {
      id: string;
      provider_id: string;
      provider_name: string;
      /** 'oidc' or 'ldap' */
      provider_type: string;
      login: string;
      /** RFC 3339, UTC */
      created_at: string;
      last_used_at: string | null;
    };
    LoginFlow: {
      id: string;
      /** Made from the client's User-Agent */
      client_name: string;
      /** RFC 3339, UTC */
      expires_at: string;
    };
    LoginFlowGrant: {
      /** The WebDAV account made for the client */
      account_id: string;
      name: string;
    };
    LogoutClient: {
      id: string;
      name: string;
      icon: string;
    };
    LogoutResult: {
      redirect_uri: string | null;
    };
    LogoutView: {
      client: components["schemas"]["LogoutClient"] | null;
      /** ask the person first: unless a live id_token_hint names the person whose token this request carries (RP-Initiated Logout 1.0 §2) */
      confirm: boolean;
      /** why the person is asked; null when not asked */
      reason: ("no_hint" | "stale_hint" | "not_signed_in" | "other_account") | null;
      /** the registered post-logout URI with state, or null */
      redirect_uri: string | null;
    };
    MailStatus: {
      configured: boolean;
      /** waiting or being retried */
      queued: number;
      sent: number;
      /** given up after 24 h of retries */
      failed: number;
    };
    MailTestResult: {
      sent: boolean;
      /** the SMTP server's reply, or the error */
      response: string;
    };
    MediaCounts: {
      pending: number;
      done: number;
      failed: number;
      skipped: number;
      off: number;
    };
    MediaInfo: {
      width?: number;
      height?: number;
      /** RFC 3339; EXIF DateTimeOriginal (UTC when it gives no offset), a video's creation time */
      taken_at?: string;
      camera_make?: string;
      camera_model?: string;
      lens?: string;
      /** seconds */
      exposure_time?: number;
      f_number?: number;
      iso?: number;
      /** mm */
      focal_length?: number;
      gps?: components["schemas"]["GpsPoint"];
      /** seconds */
      duration?: number;
      /** of the video stream, or of the sound */
      codec?: string;
      title?: string;
      artist?: string;
      album?: string;
    };
    MediaKindStatus: {
      kind: "image" | "heif" | "video" | "audio" | "pdf";
      enabled: boolean;
      /** tools not found on PATH */
      missing: string[];
      /** the Debian package to install when the kind is off */
      package: string | null;
    };
    MediaStatus: {
      kinds: components["schemas"]["MediaKindStatus"][];
      counts: components["schemas"]["MediaCounts"];
    };
    NewDavAccount: {
      id: string;
      name: string;
      /** The folder the account sees as /dav/ */
      path: string;
      readonly: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      /** RFC 3339, UTC: when a client last used the account (recorded at most once a minute); null if never */
      last_seen_at: string | null;
      /** The User-Agent of the client that last used it (a sync client's names the app and system); null if never */
      client: string | null;
      /** Shown only in this answer */
      password: string;
    };
    Notification: {
      id: string;
      type: "shared_with_me" | "upload_request_received" | "link_downloaded" | "quota_almost_full" | "new_device_sign_in" | "app_authorized" | "security_change";
      /** RFC 3339, UTC */
      at: string;
      read: boolean;
      /** what it is about (names, counts); `link` is the web app path that opens its subject */
      data: {
        [key: string]: unknown;
      };
    };
    NotificationPage: {
      items: components["schemas"]["Notification"][];
      /** unread notifications in all */
      unread: number;
      /** give it back as `cursor` for older ones; null: no more */
      cursor: string | null;
    };
    NotificationPreference: {
      /** shown in the app (the bell) */
      web: boolean;
      /** off, one mail per notification (instant), or in the daily digest (daily) */
      email: "off" | "instant" | "daily";
    };
    NotificationPreferences: {
      shared_with_me: components["schemas"]["NotificationPreference"];
      upload_request_received: components["schemas"]["NotificationPreference"];
      link_downloaded: components["schemas"]["NotificationPreference"];
      quota_almost_full: components["schemas"]["NotificationPreference"];
      new_device_sign_in: components["schemas"]["NotificationPreference"];
      app_authorized: components["schemas"]["NotificationPreference"];
      security_change: components["schemas"]["NotificationPreference"];
    };
    NotificationsRead: {
      updated: number;
    };
    OAuthAppInfo: {
      id: string;
      name: string;
      icon: string;
      homepage_url: string | null;
      description: string;
      scopes: string[];
      /** [] when anonymous */
      consented_scopes: string[];
    };
    OAuthClient: {
      /** the client_id */
      id: string;
      name: string;
      icon: string;
      homepage_url: string | null;
      description: string;
      redirect_uris: string[];
      scopes: string[];
      is_public: boolean;
      is_enabled: boolean;
      /** seconds; null: the site setting */
      refresh_token_ttl: number | null;
      grant_types: ("authorization_code" | "refresh_token" | "urn:ietf:params:oauth:grant-type:device_code")[];
      require_par: boolean;
      require_dpop: boolean;
      post_logout_redirect_uris: string[];
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      /** only in the answer that created or regenerated it */
      secret?: string;
    };
    OAuthClientPage: {
      clients: components["schemas"]["OAuthClient"][];
      pagination: components["schemas"]["Pagination"];
    };
    OAuthDeviceAuthorization: {
      device_code: string;
      /** 8 letters shown as XXXX-XXXX */
      user_code: string;
      /** <base>/device */
      verification_uri: string;
      /** verification_uri with the user code filled in */
      verification_uri_complete: string;
      /** seconds (600) */
      expires_in: number;
      /** seconds between polls (5) */
      interval: number;
    };
    OAuthErrorBody: {
      error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable" | "authorization_pending" | "slow_down" | "access_denied" | "expired_token" | "unsupported_response_type" | "request_not_supported" | "invalid_dpop_proof" | "use_dpop_nonce";
      error_description: string;
    };
    OAuthGrant: {
      client_id: string;
      name: string;
      icon: string;
      homepage_url: string | null;
      scopes: string[];
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
    };
    OAuthIntrospection: {
      active: boolean;
      client_id?: string;
      sub?: string;
      exp?: number;
      iat?: number;
      nbf?: number;
      iss?: string;
      jti?: string;
      scope?: string;
      token_type?: string;
      /** the DPoP key a bound token needs (RFC 9449 §6.2) */
      cnf?: {
        jkt: string;
      };
    };
    OAuthPushedAuthorizationResponse: {
      /** urn:ietf:params:oauth:request_uri:…; for /session/authorize with client_id, once */
      request_uri: string;
      /** seconds (60) */
      expires_in: number;
    };
    OAuthTokenResponse: {
      access_token: string;
      /** DPoP when a DPoP proof was sent: the access token is bound to its key (cnf.jkt, RFC 9449 §5) */
      token_type: "Bearer" | "DPoP";
      /** seconds */
      expires_in: number;
      scope: string;
      /** only with offline_access */
      refresh_token?: string;
      /** seconds; only with offline_access */
      refresh_token_expires_in?: number;
      /** only with openid */
      id_token?: string;
    };
    OidcProvider: {
      type: "oidc";
      id: string;
      name: string;
      icon: string | null;
      enabled: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      group_map: {
        [key: string]: number;
      };
      admin_values: string[];
      create_accounts: boolean;
      issuer: string;
      client_id: string;
      /** whether a client secret is stored (the secret is write-only) */
      client_secret_set: boolean;
      scopes: string;
      groups_claim: string | null;
      link_by_verified_email: boolean;
      allowed_domains: string[];
    };
    Pagination: {
      page: number;
      page_size: number;
      total: number;
    };
    Passkey: {
      id: string;
      name: string;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC; null until first used */
      last_used_at: string | null;
    };
    PasskeySignedIn: {
      user: components["schemas"]["User"];
      token: components["schemas"]["TokenPair"];
    };
    PasskeySignInOptions: {
      /** the challenge id */
      id: string;
      options: components["schemas"]["PublicKeyCredentialRequestOptionsJSON"];
    };
    PendingUpload: {
      id: string;
      /** the name the uploader asked for */
      name: string;
      /** the name the uploader typed, if any */
      uploader: string | null;
      /** bytes of the owner's quota the upload holds (its Upload-Length) */
      reserved: number;
      /** bytes received so far */
      received: number;
      /** RFC 3339, UTC */
      created_at: string;
      /** when it lapses unless more bytes arrive */
      expires_at: string;
    };
    PendingUploadList: {
      uploads: components["schemas"]["PendingUpload"][];
    };
    PhotoItem: {
      id: string;
      name: string;
      path: string;
      mime_type: string | null;
      size: number;
      /** RFC 3339, UTC */
      created_at: string;
      /** null when the file says nothing; it then sorts by when its content was first stored */
      taken_at: string | null;
      media: components["schemas"]["MediaInfo"] | null;
    };
    PhotoPage: {
      items: components["schemas"]["PhotoItem"][];
      next_cursor: string | null;
      /** on the first page (no cursor): how many items the whole listing holds (an upper bound by the items inside trashed folders); null on later pages */
      total: number | null;
    };
    PhotoPlace: {
      id: string;
      lat: number;
      lon: number;
    };
    ProviderTestResult: {
      ok: boolean;
      steps: components["schemas"]["ProviderTestStep"][];
    };
    ProviderTestStep: {
      step: string;
      ok: boolean;
      /** what worked, or the server's own error */
      detail: string;
    };
    PublicKeyCredentialCreationOptionsJSON: {
      [key: string]: unknown;
    };
    PublicKeyCredentialRequestOptionsJSON: {
      [key: string]: unknown;
    };
    PublicShare: {
      id: string;
      type: "file" | "folder";
      /** withheld until a password-protected share is unlocked */
      name: string | null;
      /** withheld until unlocked; null for folders */
      size: number | null;
      /** the shared file's type (the page picks its preview); withheld until unlocked; null for folders */
      mime_type: string | null;
      owner: components["schemas"]["PublicShareOwner"];
      has_password: boolean;
      unlocked: boolean;
      expires_at: string | null;
      download_limit: number | null;
      downloads: number;
      views: number;
      /** an upload request: the page offers to send files and shows nothing of the folder (name withheld) */
      upload_only: boolean;
      max_file_size: number | null;
      max_files: number | null;
      /** upload requests: false once the link has received (or is receiving) max_files files */
      accepting: boolean;
      /** RFC 3339, UTC */
      created_at: string;
    };
    PublicShareOwner: {
      nickname: string;
    };
    PushedAuthorizationRequest: {
      /** the pushed authorization request parameters */
      params: {
        [key: string]: string;
      };
    };
    ReceivedFile: {
      id: string;
      /** the name the file got in the folder (a clash gets "name (1).ext") */
      name: string;
      size: number;
      /** the name the uploader typed, if any */
      uploader: string | null;
      /** RFC 3339, UTC */
      uploaded_at: string;
    };
    ReceivedFilePage: {
      uploads: components["schemas"]["ReceivedFile"][];
      next_page_token: string | null;
    };
    RecipientGroup: {
      id: number;
      name: string;
    };
    RecipientPerson: {
      id: string;
      email: string;
      nickname: string;
    };
    RecipientSuggestions: {
      people: components["schemas"]["RecipientPerson"][];
      groups: components["schemas"]["RecipientGroup"][];
    };
    RecoveryCodes: {
      /** shown once; each works once in place of a TOTP code */
      recovery_codes: string[];
    };
    RegistrationResponse: {
      id: string;
      rawId: string;
      type: "public-key";
      response: {
        clientDataJSON: string;
        attestationObject: string;
        authenticatorData?: string;
        transports?: string[];
        publicKeyAlgorithm?: number;
        publicKey?: string;
      };
      authenticatorAttachment?: string;
      clientExtensionResults: {
        [key: string]: unknown;
      };
    };
    ResetPassword: {
      password: string;
    };
    SearchHit: {
      id: string;
      name: string;
      path: string;
      type: "file" | "folder";
      /** bytes; 0 for folders */
      size: number;
      /** null for folders */
      mime_type: string | null;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      media?: components["schemas"]["MediaInfo"];
      team_folder?: components["schemas"]["TeamFolderMark"];
      /** content matches only: HTML, the text around the match with <mark>…</mark> around it, everything else escaped */
      snippet?: string;
    };
    SearchPage: {
      files: components["schemas"]["SearchHit"][];
      /** null on the last page */
      next_page_token: string | null;
      /** scope content or all, first page only: how many of the caller's own files still wait for their text to be extracted (they cannot be found by content yet) */
      indexing_pending?: number;
    };
    SearchReindex: {
      queued: number;
    };
    SearchStatus: {
      /** Documents whose text is searchable */
      indexed: number;
      /** Documents waiting for extraction */
      pending: number;
      /** Documents no extractor could read (each counted once, not retried) */
      failed: number;
      /** Files of types that hold no text (images, archives) */
      skipped: number;
      /** The latest failures, newest first */
      recent_failures: {
        name: string | null;
        reason: string;
        /** RFC 3339, UTC */
        at: string;
      }[];
    };
    SecondFactorRequired: {
      code: 203;
      /** second-factor session id */
      data: string;
      msg: string;
    };
    SessionsEnded: {
      ended: number;
    };
    Share: {
      id: string;
      /** the public link, /s/:id */
      url: string;
      /** the shared item's current path in the owner's tree; null while it is in the trash */
      path: string | null;
      type: "file" | "folder" | null;
      name: string | null;
      has_password: boolean;
      expires_at: string | null;
      download_limit: number | null;
      downloads: number;
      views: number;
      status: "active" | "expired" | "exhausted" | "unavailable";
      /** an upload request: people with the link send files into the folder and see nothing of it */
      upload_only: boolean;
      /** upload requests: the largest file accepted, in bytes */
      max_file_size: number | null;
      /** upload requests: how many files the link accepts in all */
      max_files: number | null;
      /** upload requests: files received through the link (GET /api/v4/share/:id/uploads lists them) */
      uploads: number;
      /** each download notifies the owner (link_downloaded) */
      notify_downloads: boolean;
      /** pictures go out through the link (alone or in a folder ZIP) without their location (EXIF GPS, XMP places); TIFF and camera raw pictures are refused; true unless the owner turned it off */
      strip_location: boolean;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
    };
    SharedFolderPage: {
      files: components["schemas"]["SharedItem"][];
      next_page_token: string | null;
      parent: components["schemas"]["SharedItem"];
    };
    SharedItem: {
      name: string;
      /** relative to the shared folder (/ is the shared folder itself) */
      path: string;
      type: "file" | "folder";
      size: number;
      mime_type: string | null;
      /** RFC 3339, UTC */
      updated_at: string;
    };
    SharedWithMeItem: {
      /** the grant id */
      id: string;
      name: string;
      type: "file" | "folder";
      /** how the recipient addresses it in every file route: /Shared with me/<owner nickname> – <name> */
      path: string;
      permission: "read" | "write";
      reshare: boolean;
      owner: components["schemas"]["SharedWithMeOwner"];
      created_at: string;
      /** granted since the recipient last marked the list seen */
      new: boolean;
    };
    SharedWithMeOwner: {
      id: string;
      nickname: string;
      email: string;
    };
    ShareOwner: {
      id: string;
      nickname: string;
      email: string;
    };
    SharePage: {
      shares: components["schemas"]["Share"][];
      next_page_token: string | null;
    };
    ShareUnlock: {
      /** send as ?token= or X-Share-Token */
      token: string;
      /** RFC 3339, UTC */
      expires_at: string;
    };
    SignedIn: {
      user: components["schemas"]["User"];
      token: components["schemas"]["TokenPair"];
    };
    SignedUrl: {
      url: string;
      /** RFC 3339, UTC */
      expires_at: string;
    };
    SignInProvider: {
      id: string;
      name: string;
      icon: string | null;
    };
    SiteConfig: {
      site_name: string;
      signup_enabled: boolean;
      version: string;
      /** a mail transport is configured: "Forgot password?" and other mail flows are offered */
      mail_enabled: boolean;
      /** false: the sign-in page offers the providers first (administrators may still use a password) */
      password_sign_in: boolean;
      /** the enabled OpenID Connect providers: "Sign in with <name>" opens GET /api/v4/session/sso/{id} */
      sign_in_providers: components["schemas"]["SignInProvider"][];
      /** an LDAP directory is enabled: the sign-in form takes a directory login (such as a uid) as well as an e-mail address */
      directory_sign_in: boolean;
      /** map tiles for the Photos page's map ({z}/{x}/{y}); '' = no map (and no request to another host) */
      map_tile_url: string;
      /** plain text for the map's corner: the tile provider's credit; '' = show the tiles' host */
      map_attribution: string;
    };
    SiteSettings: {
      signup_enabled: boolean;
      /** seconds */
      access_token_ttl: number;
      /** seconds */
      refresh_token_ttl: number;
      default_group_id: number;
      site_name: string;
      signup_email_verification: boolean;
      smtp_host: string;
      smtp_port: number | null;
      smtp_security: string;
      smtp_user: string;
      /** whether a password is stored (the password itself is write-only) */
      smtp_password_set: boolean;
      mail_from: string;
      /** 'anyone', 'groups' (only people of one's own group) or 'nobody' */
      share_with: string;
      /** false: only administrators sign in with a Cirrus password */
      password_sign_in: boolean;
      /** days the audit log keeps its rows; 0 keeps them for ever */
      audit_retention_days: number;
      /** days file and folder activity is kept; 0 keeps it for ever */
      activity_retention_days: number;
      /** map tiles of the Photos page ({z}/{x}/{y}); '' = no map */
      map_tile_url: string;
      /** credit shown in the map's corner; '' = the tiles' host */
      map_attribution: string;
    };
    SsoSignedIn: {
      user: components["schemas"]["User"];
      token: components["schemas"]["TokenPair"];
    };
    SummaryDay: {
      /** YYYY-MM-DD, UTC */
      date: string;
      sign_ups: number;
      uploads: number;
    };
    TeamFolder: {
      id: string;
      group_id: number;
      name: string;
      /** what the group's members may do, unless overridden */
      permission: "read" | "write";
      /** bytes */
      storage_quota: number;
      /** bytes, trash and versions included */
      storage_used: number;
      created_at: string;
      updated_at: string;
    };
    TeamFolderMark: {
      id: string;
      /** what this member may do in it */
      permission: "read" | "write";
    };
    TeamFolderOverride: {
      user_id: string;
      email: string;
      nickname: string;
      permission: "read" | "write" | "none";
    };
    TokenPair: {
      access_token: string;
      refresh_token: string;
      /** RFC 3339, UTC */
      access_expires: string;
      /** RFC 3339, UTC */
      refresh_expires: string;
    };
    TotpEnrolment: {
      secret: string;
      otpauth_url: string;
    };
    TrashEmptied: {
      deleted: number;
    };
    TrashPage: {
      files: components["schemas"]["TrashView"][];
      next_page_token: string | null;
      /** items in the person's own trash: exactly what DELETE /file/trash deletes */
      own_count: number;
      /** items listed from team folders the person may write to: DELETE /file/trash leaves them (delete them for good by id) */
      team_count: number;
    };
    TrashView: {
      id: string;
      name: string;
      path: string;
      type: "file" | "folder";
      /** bytes; 0 for folders */
      size: number;
      /** null for folders */
      mime_type: string | null;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      updated_at: string;
      /** RFC 3339, UTC */
      trashed_at: string;
      /** where the item was when it was deleted */
      original_path: string;
    };
    UpstreamEndSession: {
      url: string | null;
    };
    User: {
      /** The UID (the tokens' sub) */
      id: string;
      email: string;
      nickname: string;
      status: "active" | "banned" | "inactive";
      /** RFC 3339, UTC */
      created_at: string;
      group: components["schemas"]["UserGroup"];
      is_admin: boolean;
      two_fa_enabled: boolean;
      /** a link mailed to this address was used (activation, reset or verification) */
      email_verified: boolean;
      /** Same-origin path of the avatar (256-pixel WebP, versioned), or null for initials */
      avatar_url: string | null;
    };
    UserGroup: {
      id: number;
      name: string;
    };
    UserInfo: {
      sub: string;
      /** with profile */
      name?: string;
      /** with profile */
      nickname?: string;
      /** with profile, while the person has an avatar: the avatar's absolute URL */
      picture?: string;
      /** with profile; seconds since the epoch */
      updated_at?: number;
      /** with email */
      email?: string;
      /** with email; true once a link mailed to the address was used */
      email_verified?: boolean;
    };
    UserSession: {
      id: string;
      /** the session this request was made with */
      current: boolean;
      browser: string | null;
      os: string | null;
      device: string | null;
      ip: string | null;
      /** RFC 3339, UTC */
      created_at: string;
      /** RFC 3339, UTC */
      last_used_at: string;
    };
    UserSessionList: {
      sessions: components["schemas"]["UserSession"][];
    };
    UserSettings: {
      /** The UID (the tokens' sub) */
      id: string;
      email: string;
      nickname: string;
      status: "active" | "banned" | "inactive";
      /** RFC 3339, UTC */
      created_at: string;
      group: components["schemas"]["UserGroup"];
      is_admin: boolean;
      two_fa_enabled: boolean;
      /** a link mailed to this address was used (activation, reset or verification) */
      email_verified: boolean;
      /** Same-origin path of the avatar (256-pixel WebP, versioned), or null for initials */
      avatar_url: string | null;
      oauth_grants: components["schemas"]["OAuthGrant"][];
      /** unused two-step recovery codes (0 when two-step verification is off) */
      recovery_codes_left: number;
    };
    VersionDeleted: {
      deleted: boolean;
    };
    VersionSource: {
      /** web: the web app or a first-party client; app: an OAuth app; webdav: a WebDAV client */
      kind: "web" | "app" | "webdav" | "unknown";
      /** the app's name or the WebDAV device's (account's) name; null for web/unknown or when it was deleted */
      name: string | null;
    };
  };
}

export type Schemas = components["schemas"];
export type Activated = components["schemas"]["Activated"];
export type ActivityAnonymous = components["schemas"]["ActivityAnonymous"];
export type ActivityEvent = components["schemas"]["ActivityEvent"];
export type ActivityPage = components["schemas"]["ActivityPage"];
export type ActivityPerson = components["schemas"]["ActivityPerson"];
export type AdminShare = components["schemas"]["AdminShare"];
export type AdminSharePage = components["schemas"]["AdminSharePage"];
export type AdminSummary = components["schemas"]["AdminSummary"];
export type AdminUser = components["schemas"]["AdminUser"];
export type AdminUserPage = components["schemas"]["AdminUserPage"];
export type AuditEvent = components["schemas"]["AuditEvent"];
export type AuditPage = components["schemas"]["AuditPage"];
export type AuditVerification = components["schemas"]["AuditVerification"];
export type AuthenticationResponse = components["schemas"]["AuthenticationResponse"];
export type AvatarSet = components["schemas"]["AvatarSet"];
export type BackchannelLogoutError = components["schemas"]["BackchannelLogoutError"];
export type BatchIdResult = components["schemas"]["BatchIdResult"];
export type BatchIdResults = components["schemas"]["BatchIdResults"];
export type BatchIdResultWithFile = components["schemas"]["BatchIdResultWithFile"];
export type BatchIdResultWithFiles = components["schemas"]["BatchIdResultWithFiles"];
export type BatchPathResult = components["schemas"]["BatchPathResult"];
export type BatchPathResults = components["schemas"]["BatchPathResults"];
export type BatchPathResultWithFile = components["schemas"]["BatchPathResultWithFile"];
export type BatchPathResultWithFiles = components["schemas"]["BatchPathResultWithFiles"];
export type Capacity = components["schemas"]["Capacity"];
export type ChangedDavAccount = components["schemas"]["ChangedDavAccount"];
export type ConsentResult = components["schemas"]["ConsentResult"];
export type DavAccount = components["schemas"]["DavAccount"];
export type DavAccountList = components["schemas"]["DavAccountList"];
export type DeviceDecision = components["schemas"]["DeviceDecision"];
export type DeviceRequest = components["schemas"]["DeviceRequest"];
export type DigestsSent = components["schemas"]["DigestsSent"];
export type ErrorCode = components["schemas"]["ErrorCode"];
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
export type ExistsResult = components["schemas"]["ExistsResult"];
export type ExistsResults = components["schemas"]["ExistsResults"];
export type FileAccessGrant = components["schemas"]["FileAccessGrant"];
export type FileChangesPage = components["schemas"]["FileChangesPage"];
export type FileEvent = components["schemas"]["FileEvent"];
export type FileVersion = components["schemas"]["FileVersion"];
export type FileView = components["schemas"]["FileView"];
export type FolderPage = components["schemas"]["FolderPage"];
export type GivenGrant = components["schemas"]["GivenGrant"];
export type GpsPoint = components["schemas"]["GpsPoint"];
export type GrantedItem = components["schemas"]["GrantedItem"];
export type GrantGroup = components["schemas"]["GrantGroup"];
export type GrantUser = components["schemas"]["GrantUser"];
export type Group = components["schemas"]["Group"];
export type Health = components["schemas"]["Health"];
export type IdentityLinkStart = components["schemas"]["IdentityLinkStart"];
export type JobHealth = components["schemas"]["JobHealth"];
export type Jwk = components["schemas"]["Jwk"];
export type Jwks = components["schemas"]["Jwks"];
export type LdapProvider = components["schemas"]["LdapProvider"];
export type LinkCheck = components["schemas"]["LinkCheck"];
export type LinkedIdentity = components["schemas"]["LinkedIdentity"];
export type LoginFlow = components["schemas"]["LoginFlow"];
export type LoginFlowGrant = components["schemas"]["LoginFlowGrant"];
export type LogoutClient = components["schemas"]["LogoutClient"];
export type LogoutResult = components["schemas"]["LogoutResult"];
export type LogoutView = components["schemas"]["LogoutView"];
export type MailStatus = components["schemas"]["MailStatus"];
export type MailTestResult = components["schemas"]["MailTestResult"];
export type MediaCounts = components["schemas"]["MediaCounts"];
export type MediaInfo = components["schemas"]["MediaInfo"];
export type MediaKindStatus = components["schemas"]["MediaKindStatus"];
export type MediaStatus = components["schemas"]["MediaStatus"];
export type NewDavAccount = components["schemas"]["NewDavAccount"];
export type Notification = components["schemas"]["Notification"];
export type NotificationPage = components["schemas"]["NotificationPage"];
export type NotificationPreference = components["schemas"]["NotificationPreference"];
export type NotificationPreferences = components["schemas"]["NotificationPreferences"];
export type NotificationsRead = components["schemas"]["NotificationsRead"];
export type OAuthAppInfo = components["schemas"]["OAuthAppInfo"];
export type OAuthClient = components["schemas"]["OAuthClient"];
export type OAuthClientPage = components["schemas"]["OAuthClientPage"];
export type OAuthDeviceAuthorization = components["schemas"]["OAuthDeviceAuthorization"];
export type OAuthErrorBody = components["schemas"]["OAuthErrorBody"];
export type OAuthGrant = components["schemas"]["OAuthGrant"];
export type OAuthIntrospection = components["schemas"]["OAuthIntrospection"];
export type OAuthPushedAuthorizationResponse = components["schemas"]["OAuthPushedAuthorizationResponse"];
export type OAuthTokenResponse = components["schemas"]["OAuthTokenResponse"];
export type OidcProvider = components["schemas"]["OidcProvider"];
export type Pagination = components["schemas"]["Pagination"];
export type Passkey = components["schemas"]["Passkey"];
export type PasskeySignedIn = components["schemas"]["PasskeySignedIn"];
export type PasskeySignInOptions = components["schemas"]["PasskeySignInOptions"];
export type PendingUpload = components["schemas"]["PendingUpload"];
export type PendingUploadList = components["schemas"]["PendingUploadList"];
export type PhotoItem = components["schemas"]["PhotoItem"];
export type PhotoPage = components["schemas"]["PhotoPage"];
export type PhotoPlace = components["schemas"]["PhotoPlace"];
export type ProviderTestResult = components["schemas"]["ProviderTestResult"];
export type ProviderTestStep = components["schemas"]["ProviderTestStep"];
export type PublicKeyCredentialCreationOptionsJSON = components["schemas"]["PublicKeyCredentialCreationOptionsJSON"];
export type PublicKeyCredentialRequestOptionsJSON = components["schemas"]["PublicKeyCredentialRequestOptionsJSON"];
export type PublicShare = components["schemas"]["PublicShare"];
export type PublicShareOwner = components["schemas"]["PublicShareOwner"];
export type PushedAuthorizationRequest = components["schemas"]["PushedAuthorizationRequest"];
export type ReceivedFile = components["schemas"]["ReceivedFile"];
export type ReceivedFilePage = components["schemas"]["ReceivedFilePage"];
export type RecipientGroup = components["schemas"]["RecipientGroup"];
export type RecipientPerson = components["schemas"]["RecipientPerson"];
export type RecipientSuggestions = components["schemas"]["RecipientSuggestions"];
export type RecoveryCodes = components["schemas"]["RecoveryCodes"];
export type RegistrationResponse = components["schemas"]["RegistrationResponse"];
export type ResetPassword = components["schemas"]["ResetPassword"];
export type SearchHit = components["schemas"]["SearchHit"];
export type SearchPage = components["schemas"]["SearchPage"];
export type SearchReindex = components["schemas"]["SearchReindex"];
export type SearchStatus = components["schemas"]["SearchStatus"];
export type SecondFactorRequired = components["schemas"]["SecondFactorRequired"];
export type SessionsEnded = components["schemas"]["SessionsEnded"];
export type Share = components["schemas"]["Share"];
export type SharedFolderPage = components["schemas"]["SharedFolderPage"];
export type SharedItem = components["schemas"]["SharedItem"];
export type SharedWithMeItem = components["schemas"]["SharedWithMeItem"];
export type SharedWithMeOwner = components["schemas"]["SharedWithMeOwner"];
export type ShareOwner = components["schemas"]["ShareOwner"];
export type SharePage = components["schemas"]["SharePage"];
export type ShareUnlock = components["schemas"]["ShareUnlock"];
export type SignedIn = components["schemas"]["SignedIn"];
export type SignedUrl = components["schemas"]["SignedUrl"];
export type SignInProvider = components["schemas"]["SignInProvider"];
export type SiteConfig = components["schemas"]["SiteConfig"];
export type SiteSettings = components["schemas"]["SiteSettings"];
export type SsoSignedIn = components["schemas"]["SsoSignedIn"];
export type SummaryDay = components["schemas"]["SummaryDay"];
export type TeamFolder = components["schemas"]["TeamFolder"];
export type TeamFolderMark = components["schemas"]["TeamFolderMark"];
export type TeamFolderOverride = components["schemas"]["TeamFolderOverride"];
export type TokenPair = components["schemas"]["TokenPair"];
export type TotpEnrolment = components["schemas"]["TotpEnrolment"];
export type TrashEmptied = components["schemas"]["TrashEmptied"];
export type TrashPage = components["schemas"]["TrashPage"];
export type TrashView = components["schemas"]["TrashView"];
export type UpstreamEndSession = components["schemas"]["UpstreamEndSession"];
export type User = components["schemas"]["User"];
export type UserGroup = components["schemas"]["UserGroup"];
export type UserInfo = components["schemas"]["UserInfo"];
export type UserSession = components["schemas"]["UserSession"];
export type UserSessionList = components["schemas"]["UserSessionList"];
export type UserSettings = components["schemas"]["UserSettings"];
export type VersionDeleted = components["schemas"]["VersionDeleted"];
export type VersionSource = components["schemas"]["VersionSource"];

/** Envelope codes (api-contract §1): 0 success, 203 second factor required, the rest errors */
export const ErrorCode = {
  Ok: 0,
  ParamError: 40001,
  LoginRequired: 401,
  Forbidden: 403,
  InsufficientScope: 40089,
  Banned: 40017,
  NotActivated: 40018,
  NotFound: 404,
  Conflict: 409,
  CredentialInvalid: 40020,
  WrongOtp: 40022,
  SignInFailed: 40080,
  WrongCurrentPassword: 40069,
  EmailTaken: 40032,
  FeatureDisabled: 40019,
  TooLarge: 40049,
  TooManyRequests: 429,
  Internal: 50000,
  SecondFactorRequired: 203,
} as const;
