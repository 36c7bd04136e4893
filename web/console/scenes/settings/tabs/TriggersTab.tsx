/** The Triggers settings tab; its pieces live in ../triggers/. */
export { default } from '../triggers/TriggersTab';
