/** The Saved replies settings tab; its pieces live in ../saved-replies/. */
export { default } from '../saved-replies/SavedRepliesTab';
