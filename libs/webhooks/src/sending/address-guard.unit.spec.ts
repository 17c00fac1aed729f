import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress, nonPublicReason, parseIpAddress } from './address-guard.js';

describe('SSRF address guard (D14)', () => {
  it('refuses loopback, private, CGNAT, link-local and the other special-purpose IPv4 ranges', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '192.0.2.10',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
  });

  it('accepts public IPv4, including the neighbours of the blocked ranges', () => {
    for (const a of [
      '93.184.216.34',
      '8.8.8.8',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '169.253.255.255',
      '11.0.0.1',
    ]) {
      assert.equal(isPublicAddress(a), true, a);
    }
  });

  it('refuses IPv4-mapped and NAT64 forms of blocked IPv4 addresses, in every spelling', () => {
    for (const a of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:10.0.0.1',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '[::ffff:192.168.0.1]',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
    ]) {
      assert.ok(nonPublicReason(a), a);
    }
    assert.equal(isPublicAddress('::ffff:93.184.216.34'), true);
  });

  it('refuses IPv6 loopback, unspecified, link-local, unique-local, multicast and documentation', () => {
    for (const a of [
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      '::127.0.0.1',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
    assert.equal(isPublicAddress('2606:4700:4700::1111'), true);
    assert.equal(isPublicAddress('2a00:1450:4001:80b::200e'), true);
  });

  it('parses what sockets and DNS report, refuses anything else', () => {
    assert.deepEqual(parseIpAddress('1.2.3.4'), { family: 4, bytes: [1, 2, 3, 4] });
    assert.equal(parseIpAddress('::ffff:1.2.3.4')?.family, 6);
    assert.deepEqual(parseIpAddress('1:2:3:4:5:6:7:8')?.bytes.slice(0, 4), [0, 1, 0, 2]);
    for (const bad of ['', 'example.com', '1.2.3', '1.2.3.256', '0x7f.1', '1:2:3:4:5:6:7:8:9', '1::2::3', 'gggg::1']) {
      assert.equal(parseIpAddress(bad), null, bad);
      assert.equal(isPublicAddress(bad), false, bad);
    }
  });
});
