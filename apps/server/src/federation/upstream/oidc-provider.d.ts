/**
 * The part of oidc-provider (v9, a test-only dev dependency) the upstream tests use: the
 * package ships no types and @types/oidc-provider is not installed.
 */
declare module 'oidc-provider' {
  import type http from 'node:http';

  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
  }

  class Grant {
    constructor(o: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
    interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: http.IncomingMessage,
      res: http.ServerResponse,
      result: Record<string, unknown>,
      o?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: typeof Grant;
  }
}
