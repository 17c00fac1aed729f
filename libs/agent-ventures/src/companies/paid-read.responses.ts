import type { OperationResponse } from '#http';

/** Headers of a charged answer (D18). */
export const CHARGED_HEADERS: OperationResponse['headers'] = {
  'X-Credits-Charged': {
    description: 'USD charged for this call (the meter price).',
    schema: { type: 'string', example: '3.50' },
  },
  'X-Credits-Balance': {
    description: 'USD of credits left after the charge.',
    schema: { type: 'string', example: '25.50' },
  },
};

/** The error answers every metered data read shares (D5, D18). */
export const PAID_READ_RESPONSES: Record<number, OperationResponse> = {
  400: { description: 'A parameter is not valid (`VALIDATION_FAILED`, details[]); not charged.' },
  401: {
    description:
      'No key, or a key that does not work here (`MISSING_AUTH`, `INVALID_KEY`, `REVOKED_KEY`, `KEY_WRONG_SURFACE`).',
  },
  402: {
    description:
      'Not enough credits for the meter price (`INSUFFICIENT_CREDITS`): problem+json with meter, price_usd, balance_usd and next_actions[]; nothing was charged and no work was done.',
    headers: {
      'X-Credits-Balance': { description: 'USD of credits left.' },
      'X-Credits-Required': { description: 'USD the call costs.' },
      'X-Next-Action': { description: 'Checkout link to buy credits.' },
      Link: { description: '<checkout>; rel="payment"' },
    },
  },
};
