import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AnonymousThrottleGuard } from '#access';
import { McpController } from './mcp.http.controller.js';
import { McpRateLimits } from './mcp-rate-limits.js';
import { McpService } from './mcp.service.js';

/**
 * The MCP endpoint (`POST /api/v1/mcp`): the agent surface's operations as tools,
 * running the same queries and commands through the buses and the (global) AgentBillingModule's
 * metered pipeline.
 */
@Module({
  imports: [CqrsModule.forRoot()],
  controllers: [McpController],
  providers: [McpService, McpRateLimits, AnonymousThrottleGuard],
})
export class McpModule {}
