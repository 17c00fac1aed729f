import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation } from '#http';
import { SANDBOX_TEST_CARDS } from '../sandbox-payment.adapter.js';
import { ConfirmSandboxSetupIntentCommand } from './confirm-setup-intent.command.js';

const setupParams = z.object({ id: z.string().regex(/^seti_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a setup intent id') });
const confirmBody = z.object({
  client_secret: z.string().min(1).max(255),
  payment_method: z.enum(Object.keys(SANDBOX_TEST_CARDS) as [string, ...string[]]).default('pm_card_visa'),
});

@Controller('api/v1/billing')
export class ConfirmSandboxSetupIntentController {
  constructor(private readonly commands: CommandBus) {}

  @Post('sandbox/setup-intents/:id/confirm')
  @HttpCode(200)
  @Operation({
    summary: 'Confirm a sandbox setup intent (stand-in for the client SDK)',
    description: `Attaches a test card to the setup intent's customer. payment_method: one of ${Object.keys(SANDBOX_TEST_CARDS).join(', ')}.`,
    tags: ['agent billing'],
    operationId: 'sandboxConfirmSetupIntent',
    params: setupParams,
    body: confirmBody,
    responses: {
      200: {
        description: 'The confirmed setup intent and the payment method to attach.',
        schema: z
          .object({ setup_intent_id: z.string(), status: z.string(), payment_method_id: z.string() })
          .meta({ id: 'ConfirmedSetupIntent' }),
      },
    },
  })
  confirm(@Param() params: z.output<typeof setupParams>, @Body() body: z.output<typeof confirmBody>) {
    return this.commands.execute(
      new ConfirmSandboxSetupIntentCommand(params.id, body.client_secret, body.payment_method),
    );
  }
}
