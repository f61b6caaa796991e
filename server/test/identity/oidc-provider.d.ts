// The part of oidc-provider (which ships no types) the identity tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export type Configuration = Record<string, unknown> & {
    interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount?: (ctx: unknown, sub: string) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> } | undefined>;
  };
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, config: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string }; params: Record<string, unknown>; grantId?: string }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: Record<string, unknown>): Promise<void>;
    Grant: new (init: { accountId: string; clientId: string }) => Grant;
  }
}
