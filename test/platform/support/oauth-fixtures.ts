import assert from 'node:assert/strict';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import * as oauth from 'openid-client';
import { RegisterOAuthClientCommand } from '#identity';
import { csrfToken, type FormClient } from './form-client.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export async function registerClient(
  app: INestApplicationContext,
  accountId: string,
  options: { public?: boolean; redirectUris?: string[]; name?: string; pkce?: 'required' | 'optional' } = {},
): Promise<{ clientId: string; clientSecret?: string }> {
  return app.get(CommandBus).execute(
    new RegisterOAuthClientCommand({
      accountId,
      name: options.name ?? 'Test app',
      redirectUris: options.redirectUris ?? [REDIRECT_URI],
      clientType: options.public ? 'public' : 'confidential',
      ...(options.pkce ? { pkce: options.pkce } : {}),
      by: 'operator',
    }),
  );
}

/** openid-client's view of this server, from its RFC 8414 metadata (plain http: a test server). */
export async function clientConfig(
  baseUrl: string,
  clientId: string,
  secret: string | undefined,
  auth: 'basic' | 'post' | 'none' = 'basic',
): Promise<oauth.Configuration> {
  const authMethod =
    auth === 'none'
      ? oauth.None()
      : auth === 'post'
        ? oauth.ClientSecretPost(secret!)
        : oauth.ClientSecretBasic(secret!);
  return oauth.discovery(new URL(baseUrl), clientId, undefined, authMethod, {
    algorithm: 'oauth2',
    execute: [oauth.allowInsecureRequests],
  });
}

/**
 * A browser (FormClient, signed in) through /oauth/authorize, the consent page and back:
 * returns the callback URL the client gets (code and state, or error and state).
 */
export async function authorize(
  browser: FormClient,
  config: oauth.Configuration,
  options: { scope: string; state?: string; pkce?: boolean; redirectUri?: string; answer?: 'approve' | 'deny' } = {
    scope: 'read',
  },
): Promise<{ callback: URL; verifier: string | undefined; state: string; consentPage: string }> {
  const state = options.state ?? oauth.randomState();
  const verifier = options.pkce === false ? undefined : oauth.randomPKCECodeVerifier();
  const url = oauth.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope,
    state,
    ...(verifier
      ? { code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
      : {}),
  });
  return { ...(await followAuthorization(browser, `${url.pathname}${url.search}`, options.answer)), verifier, state };
}

/**
 * A signed-in browser from an authorization URL (path and query) through the consent page, where
 * it answers, to the redirect to the client: the callback URL (code and state, or error and state).
 */
export async function followAuthorization(
  browser: FormClient,
  start: string,
  answer: 'approve' | 'deny' = 'approve',
): Promise<{ callback: URL; consentPage: string }> {
  let location = start;
  let consentPage = '';
  for (let hops = 0; hops < 10; hops++) {
    const page = await browser.get(location);
    if (page.status === 200 && /\/oauth\/interaction\//.test(location)) {
      consentPage = page.body;
      const posted = await browser.post(`${location}/${answer}`, { _csrf: csrfToken(page.body) });
      assert.equal(posted.status, 303, posted.body);
      const back = new URL(posted.headers.get('location')!, browser.baseUrl);
      location = `${back.pathname}${back.search}`;
      continue;
    }
    assert.ok([302, 303].includes(page.status), `${location}: ${page.status} ${page.body.slice(0, 300)}`);
    const next = new URL(page.headers.get('location')!, browser.baseUrl);
    if (next.origin !== new URL(browser.baseUrl).origin) return { callback: next, consentPage };
    location = `${next.pathname}${next.search}`;
  }
  throw new Error('too many redirects');
}
