import { AppError, assertNever, type Decider } from '#kernel';
import type { CompanyEvent } from './company.events.js';
import {
  applyChanges,
  type CompanyProfileData,
  companyIdFor,
  diffProfiles,
  hasChanges,
  profileHash,
} from './company.profile.js';

export type CompanyCommand = {
  type: 'ImportCompany';
  companyId: string;
  /** Normalised (checkCompanyRecord). */
  profile: CompanyProfileData;
  source: string;
  /** When the import ran. */
  at: Date;
  /** profileHash(profile) when the caller computed it already (the importer does); computed otherwise. */
  contentHash?: string;
};

export interface CompanyState {
  profile: CompanyProfileData | null;
  contentHash: string | null;
}

/**
 * A company: imported once, then updated by later imports with only what changed. Importing a
 * record equal to the stored profile decides nothing (re-importing an unchanged file appends
 * nothing). The id must be the one derived from the domain, so a stream never holds another
 * company.
 */
export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  initialState: { profile: null, contentHash: null },

  evolve(state, event) {
    switch (event.type) {
      case 'CompanyImported':
        return { profile: event.data.profile, contentHash: event.data.content_hash };
      case 'CompanyUpdated':
        return { profile: applyChanges(state.profile!, event.data.changes), contentHash: event.data.content_hash };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ImportCompany': {
        const { companyId, profile, source } = command;
        if (companyId !== companyIdFor(profile.domain)) {
          throw new AppError(
            'invalid',
            'VALIDATION_FAILED',
            `Company id ${companyId} does not belong to the domain ${profile.domain}.`,
          );
        }
        const at = command.at.toISOString();
        const contentHash = command.contentHash ?? profileHash(profile);
        if (state.profile === null) {
          return [
            {
              type: 'CompanyImported',
              data: { company_id: companyId, profile, content_hash: contentHash, source, at },
            },
          ];
        }
        if (state.contentHash === contentHash) return [];
        const changes = diffProfiles(state.profile, profile);
        if (!hasChanges(changes)) return [];
        return [
          { type: 'CompanyUpdated', data: { company_id: companyId, changes, content_hash: contentHash, source, at } },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};
