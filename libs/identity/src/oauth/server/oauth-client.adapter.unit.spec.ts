import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ActiveOAuthClient } from '../clients/oauth-client-lookup.js';
import { hashClientSecret } from '../clients/oauth-client.events.js';
import { type ClientAuthRequest, OAuthClientAdapter, presentedClientSecret } from './oauth-client.adapter.js';

const client: ActiveOAuthClient = {
  status: 'active',
  clientId: 'oac_1',
  accountId: 'acct_1',
  name: 'App',
  redirectUris: ['https://app.example/cb'],
  clientType: 'confidential',
  secretHash: hashClientSecret('ocs_s3cret +/'),
  pkce: 'required',
  registeredAt: '2026-03-01T10:00:00.000Z',
};

const basic = (id: string, secret: string) => ({
  headers: {
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
  },
});

async function secretSeenBy(request: ClientAuthRequest | undefined): Promise<unknown> {
  const adapter = new OAuthClientAdapter(
    async () => client,
    () => request,
  );
  return (await adapter.find('oac_1'))?.client_secret;
}

describe('OAuthClientAdapter (client secrets stored as hashes, checked in the Client adapter)', () => {
  it('hands the provider the presented secret only when it matches the stored hash (HTTP Basic or client_secret_post)', async () => {
    assert.equal(await secretSeenBy(basic('oac_1', 'ocs_s3cret +/')), 'ocs_s3cret +/');
    assert.equal(
      await secretSeenBy({ headers: {}, oidc: { params: { client_secret: 'ocs_s3cret +/' } } }),
      'ocs_s3cret +/',
    );
    for (const request of [
      basic('oac_1', 'ocs_wrong'),
      basic('oac_other', 'ocs_s3cret +/'),
      basic('oac_1', client.secretHash!),
      { headers: { authorization: 'Basic !!!' } },
      { headers: {} },
      undefined,
    ]) {
      const seen = await secretSeenBy(request);
      assert.equal(typeof seen, 'string');
      assert.notEqual(seen, 'ocs_s3cret +/');
      assert.notEqual(seen, client.secretHash, 'the stored hash is never a usable secret');
    }
  });

  it('reads a form-urlencoded Basic secret as RFC 6749 §2.3.1 says (+ is a space)', () => {
    const header = `Basic ${Buffer.from('oac_1:a+b%2Bc').toString('base64')}`;
    assert.equal(presentedClientSecret({ headers: { authorization: header } }, 'oac_1'), 'a b+c');
    assert.equal(presentedClientSecret({ headers: { authorization: 'Bearer x' } }, 'oac_1'), undefined);
  });

  it('gives a public client no secret at all', async () => {
    const adapter = new OAuthClientAdapter(
      async () => ({ ...client, clientType: 'public', secretHash: null }),
      () => undefined,
    );
    const found = await adapter.find('oac_1');
    assert.equal(found?.token_endpoint_auth_method, 'none');
    assert.equal('client_secret' in (found ?? {}), false);
  });
});
