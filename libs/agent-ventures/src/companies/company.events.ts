import type { CompanyProfileData, ProfileChanges } from './company.profile.js';

/**
 * Stored event types of `company-{cmp_…}` streams. Names are stable: never rename.
 * - `CompanyImported`: first import of the company (the whole profile).
 * - `CompanyUpdated`: a later import that changed something; `changes` holds only the changed
 *   fields (signals: only the changed series). An unchanged record appends nothing.
 * `at` is when the import ran (the injected clock): scores computed from the event carry it as
 * `computed_at`, so a rebuild reproduces them exactly. `content_hash` fingerprints the whole
 * profile after the event, so an import compares a record with the stored company without
 * folding its stream. `source` names the import (`file:companies.csv`, `demo`).
 */
export type CompanyEvent =
  | {
      type: 'CompanyImported';
      data: { company_id: string; profile: CompanyProfileData; content_hash: string; source: string; at: string };
    }
  | {
      type: 'CompanyUpdated';
      data: { company_id: string; changes: ProfileChanges; content_hash: string; source: string; at: string };
    };

export const COMPANY_EVENT_TYPES: CompanyEvent['type'][] = ['CompanyImported', 'CompanyUpdated'];

/**
 * The demo data claim (`demo-companies`, D20): the first process to append `DemoCompaniesClaimed`
 * with `no_stream` seeds the store; `DemoCompaniesSeeded` marks it done; `DemoCompaniesSkipped`
 * records that the store already had companies (so later starts need not look again).
 */
export type DemoDataEvent =
  | { type: 'DemoCompaniesClaimed'; data: { seed: number; count: number; as_of: string; at: string } }
  | {
      type: 'DemoCompaniesSeeded';
      data: { seed: number; count: number; imported: number; updated: number; unchanged: number; at: string };
    }
  | { type: 'DemoCompaniesSkipped'; data: { reason: string; at: string } };

export const DEMO_DATA_STREAM = 'demo-companies';
