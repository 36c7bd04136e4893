/** The Question groups settings tab; its pieces live in ../question-groups/. */
export { default } from '../question-groups/QuestionGroupsTab';
