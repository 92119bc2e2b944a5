import type { Deps } from "../../context";
import { emailTopic } from "../email/transport";
import { evidenceCheckTopic } from "../evidence-checks/run";
import { passwordResetTopic } from "../password-reset/request";
import { pushTopic } from "../push/deliver";
import { webhookTopics } from "../webhooks/deliveries";
import type { TopicConfig } from "./worker";

/**
 * Every outbox topic, registered in one place: the server starts one worker with these, tests drain them.
 * Each feature adds its topic here as one line.
 */
export function outboxTopics(deps: Deps, now?: () => Date): Record<string, TopicConfig> {
  return {
    ...webhookTopics(deps, now),
    ...emailTopic(deps),
    ...passwordResetTopic(deps),
    ...pushTopic(deps),
    ...evidenceCheckTopic(deps),
  };
}
