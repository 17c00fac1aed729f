import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { checkCompanyRecord } from './company-record.schema.js';
import { companyDecider } from './company.decider.js';
import type { CompanyEvent } from './company.events.js';
import { type CompanyProfileData, companyIdFor, profileHash } from './company.profile.js';

const at = new Date('2026-11-01T09:00:00.000Z');
const later = new Date('2026-11-02T09:00:00.000Z');

function profile(record: Record<string, unknown>): CompanyProfileData {
  const check = checkCompanyRecord({ name: 'Acme Robotics', domain: 'acme.example.com', ...record });
  assert.ok(check.ok, check.ok ? '' : check.reason);
  return check.profile;
}

const base = profile({
  sectors: ['robotics'],
  headquarters: { country: 'DE', city: 'Berlin' },
  stage: 'seed',
  headcount: 12,
  signals: {
    headcount: [
      { date: '2026-01-01', value: 8 },
      { date: '2026-10-01', value: 12 },
    ],
  },
});
const id = companyIdFor('acme.example.com');

const imported: CompanyEvent = {
  type: 'CompanyImported',
  data: { company_id: id, profile: base, content_hash: profileHash(base), source: 'file:a.csv', at: at.toISOString() },
};

describe('company decider (given / when / then)', () => {
  const spec = deciderSpec(companyDecider);

  it('a new company is imported with its whole profile', () => {
    spec
      .given([])
      .when({ type: 'ImportCompany', companyId: id, profile: base, source: 'file:a.csv', at })
      .then([imported]);
  });

  it('the same profile again decides nothing (re-import appends nothing)', () => {
    spec
      .given([imported])
      .when({ type: 'ImportCompany', companyId: id, profile: base, source: 'file:b.csv', at: later })
      .then([]);
  });

  it('a changed profile yields CompanyUpdated with only the changed fields (signals: only the changed series)', () => {
    const next = profile({
      sectors: ['robotics'],
      headquarters: { country: 'DE', city: 'Munich' },
      stage: 'series-a',
      headcount: 12,
      signals: {
        headcount: [
          { date: '2026-01-01', value: 8 },
          { date: '2026-10-01', value: 12 },
        ],
        web_traffic: [{ date: '2026-10-01', value: 5000 }],
      },
    });
    spec
      .given([imported])
      .when({ type: 'ImportCompany', companyId: id, profile: next, source: 'file:b.csv', at: later })
      .then([
        {
          type: 'CompanyUpdated',
          data: {
            company_id: id,
            changes: {
              headquarters: { country: 'DE', city: 'Munich' },
              stage: 'series-a',
              signals: { web_traffic: [{ date: '2026-10-01', value: 5000 }] },
            },
            content_hash: profileHash(next),
            source: 'file:b.csv',
            at: later.toISOString(),
          },
        },
      ]);
  });

  it('folding the update gives the new profile (and its hash)', () => {
    const next = profile({
      sectors: ['robotics', 'ai'],
      stage: 'seed',
      headcount: 15,
      headquarters: { country: 'DE', city: 'Berlin' },
    });
    const events = companyDecider.decide(
      { type: 'ImportCompany', companyId: id, profile: next, source: 's', at: later },
      fold(companyDecider, [imported]),
    );
    assert.equal(events.length, 1);
    const state = fold(companyDecider, [imported, ...events]);
    assert.deepEqual(state.profile, next);
    assert.equal(state.contentHash, profileHash(next));
  });

  it('refuses an id that does not belong to the domain', () => {
    spec
      .given([])
      .when({ type: 'ImportCompany', companyId: companyIdFor('other.example.com'), profile: base, source: 's', at })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
  });
});

describe('company ids and profiles', () => {
  it('ids are derived from the normalised domain: stable, prefixed, 26 Crockford characters', () => {
    const a = profile({ domain: 'https://www.Acme.Example.com/about?x=1' });
    assert.equal(a.domain, 'acme.example.com');
    assert.equal(companyIdFor(a.domain), id);
    assert.match(id, /^cmp_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.notEqual(companyIdFor('acme.example.org'), id);
  });

  it('the content hash ignores key order and sees every value', () => {
    const reordered = Object.fromEntries(
      Object.entries(structuredClone(base)).reverse(),
    ) as unknown as CompanyProfileData;
    assert.equal(profileHash(reordered), profileHash(base));
    assert.notEqual(profileHash({ ...base, headcount: 13 }), profileHash(base));
  });

  it('keeps ids and content hashes stable: stored events carry them, a re-import compares against them', () => {
    // Computed once by the first implementation; a new hashing call must give the same bytes.
    assert.equal(id, 'cmp_NWM7PKT2KDK7YR6TAWWCQM330Y');
    assert.equal(profileHash(base), '595b49f4122b99353ef5a953ea342c0b');
  });
});
