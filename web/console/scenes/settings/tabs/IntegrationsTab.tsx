/** The Integrations settings tab; its pieces live in ../integrations/. */
export { default } from '../integrations/IntegrationsTab';
