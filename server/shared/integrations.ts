/** What the console's Integrations tab shows of a widget's Segment source (GET /v1/chat_endpoints/{id}/segment). */
export type SegmentStatusView = {
  /** The widget has a Segment write key (set under Behavior), so its conversation events go to Segment. */
  enabled: boolean;
  /** When Segment last accepted a batch of this widget's events from the process that answered (ISO 8601), or null. */
  lastDeliveredAt: string | null;
  /** Why the last batch was refused or not delivered, until one is accepted again. */
  lastError: string | null;
};
