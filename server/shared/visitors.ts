/** How a visitor is named (in Slack, mails, the console): their name, else their e-mail address, else "Visitor N". */
export function visitorLabel(visitor: { name?: string; email?: string }, number: number): string {
  return visitor.name || visitor.email || `Visitor ${number}`;
}
