import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress, nonPublicReason } from './address-guard.js';

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

  it('names every IANA special-purpose range it refuses, in IPv4, IPv4-mapped, NAT64 and 6to4 form', () => {
    const cases: Array<[string, string]> = [
      ['0.1.2.3', 'this network'],
      ['192.0.0.170', 'IETF protocol assignments'],
      ['192.88.99.1', '6to4 relay anycast'],
      ['198.19.255.255', 'benchmarking'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.7', 'documentation'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['::ffff:100.64.0.1', 'IPv4-mapped shared address space (CGNAT)'],
      ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
      ['64:ff9b::192.168.0.1', 'NAT64 private'],
      ['64:ff9b::7f00:1', 'NAT64 loopback'],
      ['2002:a00:1::1', '6to4 private'],
      ['2002:e000:1::', '6to4 multicast'],
      ['::ffff:0:7f00:1', 'IPv4-translated'],
      ['::ffff:0:808:808', 'IPv4-translated'],
      ['64:ff9b:1::1', 'local-use NAT64'],
      ['100::1', 'discard-only'],
      ['2001:2::1', 'IETF protocol assignments (Teredo, ...)'],
      ['2001:0:4136:e378::1', 'IETF protocol assignments (Teredo, ...)'],
      ['2001:db8:ffff::1', 'documentation'],
      ['3fff:fff::1', 'documentation'],
      ['5f00::1', 'segment routing'],
      ['fec0::1', 'site-local'],
      ['ff0e::1', 'multicast'],
      ['4000::1', 'not global unicast'],
      ['100:0:0:1::1', 'not global unicast'],
      ['::2', 'unspecified, loopback or IPv4-compatible'],
    ];
    for (const [address, reason] of cases) assert.equal(nonPublicReason(address), reason, address);
  });

  it('accepts NAT64 and 6to4 forms of public IPv4 addresses, and the neighbours of the IPv6 ranges', () => {
    for (const a of [
      '64:ff9b::808:808',
      '64:ff9b::8.8.8.8',
      '2002:5db8:d822::1',
      '2001:200::1',
      '2001:db7:ffff::1',
      '2003::1',
      '3fff:1000::1',
      '192.88.100.1',
      '198.20.0.1',
      '223.255.255.255',
    ]) {
      assert.equal(nonPublicReason(a), null, a);
    }
  });

  it('refuses anything that is not an IP address as sockets and DNS report them', () => {
    for (const bad of [
      '',
      'example.com',
      '1.2.3',
      '1.2.3.256',
      '0x7f.1',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'gggg::1',
      '1.2.3.4%eth0',
      '[1.2.3.4]',
    ]) {
      assert.equal(nonPublicReason(bad), 'not an IP address', bad);
      assert.equal(isPublicAddress(bad), false, bad);
    }
    assert.equal(isPublicAddress('1:2:3:4:5:6:7:8'), false, 'outside 2000::/3');
    assert.equal(isPublicAddress('2606:4700::1111'), true);
  });
});
