/**
 * Billing meters (spec "Billing meters", names exact) and their prices (D17), in integer cents per
 * successful call. Prices are configurable with SVC_METER_PRICES_USD (`name=usd,...`).
 */
import { ConfigError } from '#kernel';

export const METER_NAMES = [
  'read.discovery_top',
  'read.company_profile',
  'read.company_score',
  'read.workspace.company',
  'read.workspace.memo',
  'write.workspace.note',
  'write.workspace.followup',
  'read.workspace.events',
  'write.workspace.webhook',
  'deliver.workspace.webhook',
] as const;
export type MeterName = (typeof METER_NAMES)[number];

export type MeterPrices = Readonly<Record<MeterName, number>>;

/** D17 defaults, cents per successful call. */
export const DEFAULT_METER_PRICES_CENTS: MeterPrices = Object.freeze({
  'read.discovery_top': 350,
  'read.company_profile': 250,
  'read.company_score': 200,
  'read.workspace.company': 300,
  'read.workspace.memo': 300,
  'write.workspace.note': 600,
  'write.workspace.followup': 300,
  'read.workspace.events': 200,
  'write.workspace.webhook': 400,
  'deliver.workspace.webhook': 100,
});

export interface MeterInfo {
  meter: MeterName;
  /** What one charge buys. */
  description: string;
  /** The operation (or the event) that is charged. */
  charged_on: string;
  /** Needs an enterprise, tenant-bound key. */
  enterprise: boolean;
}

export const METERS: readonly MeterInfo[] = Object.freeze([
  {
    meter: 'read.discovery_top',
    description: 'Ranked list of startup opportunities',
    charged_on: 'GET /api/v1/discovery/top',
    enterprise: false,
  },
  {
    meter: 'read.company_profile',
    description: 'One company profile',
    charged_on: 'GET /api/v1/companies/{id}',
    enterprise: false,
  },
  {
    meter: 'read.company_score',
    description: 'One company score with its components',
    charged_on: 'GET /api/v1/companies/{id}/score',
    enterprise: false,
  },
  {
    meter: 'read.workspace.company',
    description: 'List the tenant workspace companies',
    charged_on: 'GET /api/v1/workspace/companies',
    enterprise: true,
  },
  {
    meter: 'read.workspace.memo',
    description: 'Read the current memo of a workspace company',
    charged_on: 'GET /api/v1/workspace/companies/{id}/memo',
    enterprise: true,
  },
  {
    meter: 'write.workspace.note',
    description: 'Update a memo or a deal',
    charged_on: 'PATCH /api/v1/workspace/companies/{id}/memo, PATCH /api/v1/workspace/deals/{id}',
    enterprise: true,
  },
  {
    meter: 'write.workspace.followup',
    description: 'Create or update a follow-up',
    charged_on:
      'POST /api/v1/workspace/companies/{id}/follow-ups, PUT /api/v1/workspace/companies/{id}/follow-ups/{key}',
    enterprise: true,
  },
  {
    meter: 'read.workspace.events',
    description: 'Read the tenant event stream',
    charged_on: 'GET /api/v1/workspace/events',
    enterprise: true,
  },
  {
    meter: 'write.workspace.webhook',
    description: 'Create a webhook subscription',
    charged_on: 'POST /api/v1/workspace/webhooks/subscriptions',
    enterprise: true,
  },
  {
    meter: 'deliver.workspace.webhook',
    description: 'One successful push to a webhook subscription',
    charged_on: 'each delivered workspace webhook event',
    enterprise: true,
  },
] satisfies MeterInfo[]);

export function isMeterName(value: unknown): value is MeterName {
  return typeof value === 'string' && (METER_NAMES as readonly string[]).includes(value);
}

/**
 * The effective price list: D17 defaults with overrides applied (e.g. `config.meterPricesCents`,
 * parsed from SVC_METER_PRICES_USD). An override naming an unknown meter is a configuration
 * error, reported like the other settings (one line naming the variable).
 */
export function meterPrices(overrides: Readonly<Record<string, number>> = {}): MeterPrices {
  const prices: Record<MeterName, number> = { ...DEFAULT_METER_PRICES_CENTS };
  for (const [name, cents] of Object.entries(overrides)) {
    if (!isMeterName(name)) {
      throw new ConfigError(
        `Invalid configuration: SVC_METER_PRICES_USD: unknown meter "${name}" (known: ${METER_NAMES.join(', ')})`,
      );
    }
    if (!Number.isInteger(cents) || cents < 0) {
      throw new ConfigError(
        `Invalid configuration: SVC_METER_PRICES_USD: price of ${name} must be whole cents, at least 0`,
      );
    }
    prices[name] = cents;
  }
  return Object.freeze(prices);
}
