/** The Answers settings tab (the widget's help center); its pieces live in ../answers/. */
export { default } from '../answers/AnswersTab';
