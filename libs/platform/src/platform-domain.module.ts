import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule } from '#projections';
import { AgentLookup } from './agents/agent-lookup.js';
import { agentsProjection } from './agents/agents.projection.js';
import { CreateAgentHandler } from './agents/commands/create-agent/create-agent.handler.js';
import { CreateAgentController } from './agents/commands/create-agent/create-agent.http.controller.js';
import { UpdateAgentHandler } from './agents/commands/update-agent/update-agent.handler.js';
import { UpdateAgentController } from './agents/commands/update-agent/update-agent.http.controller.js';
import { GetAgentHandler } from './agents/queries/get-agent/get-agent.handler.js';
import { GetAgentController } from './agents/queries/get-agent/get-agent.http.controller.js';
import { ListAgentTemplatesController } from './agents/queries/list-agent-templates/list-agent-templates.http.controller.js';
import { ListAgentsHandler } from './agents/queries/list-agents/list-agents.handler.js';
import { ListAgentsController } from './agents/queries/list-agents/list-agents.http.controller.js';
import { ApprovalExpirySweeper } from './approvals/approval-expiry.sweeper.js';
import { RunTimeoutSweeper } from './runs/run-timeout.sweeper.js';
import { ApprovalLookup } from './approvals/approval-lookup.js';
import { approvalsProjection } from './approvals/approvals.projection.js';
import { DecideApprovalHandler } from './approvals/commands/decide-approval/decide-approval.handler.js';
import { DecideApprovalController } from './approvals/commands/decide-approval/decide-approval.http.controller.js';
import { RequestApprovalHandler } from './approvals/commands/request-approval/request-approval.handler.js';
import { RequestApprovalController } from './approvals/commands/request-approval/request-approval.http.controller.js';
import { GetApprovalHandler } from './approvals/queries/get-approval/get-approval.handler.js';
import { GetApprovalController } from './approvals/queries/get-approval/get-approval.http.controller.js';
import { ListApprovalsHandler } from './approvals/queries/list-approvals/list-approvals.handler.js';
import { ListApprovalsController } from './approvals/queries/list-approvals/list-approvals.http.controller.js';
import { platformEventsProjection } from './platform-events/platform-events.projection.js';
import { GetEventHandler } from './platform-events/queries/get-event/get-event.handler.js';
import { GetEventController } from './platform-events/queries/get-event/get-event.http.controller.js';
import { ListEventsHandler } from './platform-events/queries/list-events/list-events.handler.js';
import { ListEventsController } from './platform-events/queries/list-events/list-events.http.controller.js';
import { ConnectRepositoryHandler } from './repositories/commands/connect-repository/connect-repository.handler.js';
import { ConnectRepositoryController } from './repositories/commands/connect-repository/connect-repository.http.controller.js';
import { DisconnectRepositoryHandler } from './repositories/commands/disconnect-repository/disconnect-repository.handler.js';
import { DisconnectRepositoryController } from './repositories/commands/disconnect-repository/disconnect-repository.http.controller.js';
import { ReportAnalysisHandler } from './repositories/commands/report-analysis/report-analysis.handler.js';
import { ReportAnalysisController } from './repositories/commands/report-analysis/report-analysis.http.controller.js';
import { GetRepositoryHandler } from './repositories/queries/get-repository/get-repository.handler.js';
import { GetRepositoryController } from './repositories/queries/get-repository/get-repository.http.controller.js';
import { ListAnalysesHandler } from './repositories/queries/list-analyses/list-analyses.handler.js';
import { ListAnalysesController } from './repositories/queries/list-analyses/list-analyses.http.controller.js';
import { ListRepositoriesHandler } from './repositories/queries/list-repositories/list-repositories.handler.js';
import { ListRepositoriesController } from './repositories/queries/list-repositories/list-repositories.http.controller.js';
import { repositoriesProjection } from './repositories/repositories.projection.js';
import { RepositoryLookup } from './repositories/repository-lookup.js';
import { CancelRunHandler } from './runs/commands/cancel-run/cancel-run.handler.js';
import { CancelRunController } from './runs/commands/cancel-run/cancel-run.http.controller.js';
import { ClaimNextRunHandler, ClaimRunHandler } from './runs/commands/claim-run/claim-run.handler.js';
import { ClaimRunController } from './runs/commands/claim-run/claim-run.http.controller.js';
import { CompleteRunHandler } from './runs/commands/complete-run/complete-run.handler.js';
import { CompleteRunController } from './runs/commands/complete-run/complete-run.http.controller.js';
import { FailRunHandler } from './runs/commands/fail-run/fail-run.handler.js';
import { FailRunController } from './runs/commands/fail-run/fail-run.http.controller.js';
import { StartRunHandler } from './runs/commands/start-run/start-run.handler.js';
import { StartRunController } from './runs/commands/start-run/start-run.http.controller.js';
import { GetRunHandler } from './runs/queries/get-run/get-run.handler.js';
import { GetRunController } from './runs/queries/get-run/get-run.http.controller.js';
import { ListRunFindingsHandler } from './runs/queries/list-run-findings/list-run-findings.handler.js';
import { ListRunFindingsController } from './runs/queries/list-run-findings/list-run-findings.http.controller.js';
import { ListRunsHandler } from './runs/queries/list-runs/list-runs.handler.js';
import { ListRunsController } from './runs/queries/list-runs/list-runs.http.controller.js';
import { RunLookup } from './runs/run-lookup.js';
import { RunTransitions } from './runs/run-transition.js';
import { runsProjection } from './runs/runs.projection.js';
import { ReportScanHandler } from './security/commands/report-scan/report-scan.handler.js';
import { ReportScanController } from './security/commands/report-scan/report-scan.http.controller.js';
import { ListScansHandler } from './security/queries/list-scans/list-scans.handler.js';
import { ListScansController } from './security/queries/list-scans/list-scans.http.controller.js';
import { ListVulnerabilitiesHandler } from './security/queries/list-vulnerabilities/list-vulnerabilities.handler.js';
import { ListVulnerabilitiesController } from './security/queries/list-vulnerabilities/list-vulnerabilities.http.controller.js';
import { securityProjection } from './security/security.projection.js';
import { ReadYourWrites } from '#projections';

/** The read models of the platform domain, in one place (the worker and the CLI run them too). */
export const PLATFORM_DOMAIN_PROJECTIONS = [
  repositoriesProjection,
  agentsProjection,
  runsProjection,
  securityProjection,
  approvalsProjection,
  platformEventsProjection,
];

/**
 * The platform domain: repositories (D8), agents and runs (D9), security scans (D10),
 * approvals (D11) and the platform events they publish (`/v1/events`, and the read model the
 * webhook engine reads). Registered by libs/runtime beside identity's modules.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature(PLATFORM_DOMAIN_PROJECTIONS)],
  controllers: [
    ConnectRepositoryController,
    ListRepositoriesController,
    GetRepositoryController,
    DisconnectRepositoryController,
    ReportAnalysisController,
    ListAnalysesController,
    ReportScanController,
    ListScansController,
    ListVulnerabilitiesController,
    ListAgentTemplatesController,
    CreateAgentController,
    ListAgentsController,
    GetAgentController,
    UpdateAgentController,
    StartRunController,
    ClaimRunController,
    ListRunsController,
    GetRunController,
    ListRunFindingsController,
    CompleteRunController,
    FailRunController,
    CancelRunController,
    RequestApprovalController,
    ListApprovalsController,
    GetApprovalController,
    DecideApprovalController,
    ListEventsController,
    GetEventController,
  ],
  providers: [
    ReadYourWrites,
    RepositoryLookup,
    AgentLookup,
    RunLookup,
    RunTransitions,
    ApprovalLookup,
    ApprovalExpirySweeper,
    RunTimeoutSweeper,
    ConnectRepositoryHandler,
    DisconnectRepositoryHandler,
    ReportAnalysisHandler,
    ListRepositoriesHandler,
    GetRepositoryHandler,
    ListAnalysesHandler,
    ReportScanHandler,
    ListScansHandler,
    ListVulnerabilitiesHandler,
    CreateAgentHandler,
    UpdateAgentHandler,
    ListAgentsHandler,
    GetAgentHandler,
    StartRunHandler,
    ClaimRunHandler,
    ClaimNextRunHandler,
    CompleteRunHandler,
    FailRunHandler,
    CancelRunHandler,
    ListRunsHandler,
    GetRunHandler,
    ListRunFindingsHandler,
    RequestApprovalHandler,
    DecideApprovalHandler,
    ListApprovalsHandler,
    GetApprovalHandler,
    ListEventsHandler,
    GetEventHandler,
  ],
  exports: [RepositoryLookup, ApprovalExpirySweeper, RunTimeoutSweeper],
})
export class PlatformDomainModule {}
