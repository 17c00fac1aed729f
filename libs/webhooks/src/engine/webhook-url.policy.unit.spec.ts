import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secretProblem, webhookUrlProblem } from './webhook-url.policy.js';

const open = { requireHttps: false, allowPrivate: true };
const guarded = { requireHttps: false, allowPrivate: false };
const live = { requireHttps: true, allowPrivate: false };

describe('webhook URL and secret rules (D13, D14)', () => {
  it('http and https only; https when SVC_ENV=live', () => {
    assert.equal(webhookUrlProblem('http://hooks.example.com/x', guarded), null);
    assert.equal(webhookUrlProblem('https://hooks.example.com/x', live), null);
    assert.match(String(webhookUrlProblem('http://hooks.example.com/x', live)), /https/);
    for (const bad of ['ftp://h.example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'hooks.example.com', '']) {
      assert.ok(webhookUrlProblem(bad, open), bad);
    }
    assert.match(String(webhookUrlProblem('https://u:p@hooks.example.com', open)), /credentials/);
    assert.match(String(webhookUrlProblem(`https://h.example.com/${'a'.repeat(2100)}`, open)), /2048/);
  });

  it('with the guard on, non-public literals and localhost are refused; names are left to connection time', () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://localhost/',
      'http://a.localhost/',
      'http://10.2.3.4/',
      'http://[::ffff:192.168.0.1]/',
      'http://0177.0.0.1/',
    ]) {
      assert.match(String(webhookUrlProblem(url, guarded)), /public address/, url);
      assert.equal(webhookUrlProblem(url, open), null, `${url} allowed with SVC_WEBHOOK_ALLOW_PRIVATE`);
    }
    assert.equal(webhookUrlProblem('http://8.8.8.8/', guarded), null);
    assert.equal(webhookUrlProblem('http://internal.corp.example/', guarded), null);
  });

  it('secrets: at least 16 bytes', () => {
    assert.ok(secretProblem('123456789012345'));
    assert.equal(secretProblem('1234567890123456'), null);
    assert.equal(secretProblem('ééééééééé'), null, '18 bytes in UTF-8');
    assert.ok(secretProblem('x'.repeat(1025)));
  });
});
