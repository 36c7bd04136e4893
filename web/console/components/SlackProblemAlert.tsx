/**
 * What went wrong with Slack when its OAuth sent the user back with `?error=…` (lib/slackProblems.ts says it in
 * words); dismissing it takes the error out of the URL, so a reload does not show it again.
 */
import { useSearchParams } from 'react-router-dom';
import { slackProblem } from '../lib/slackProblems';
import { Alert } from './ui';

export function SlackProblemAlert() {
  const [params, setParams] = useSearchParams();
  const problem = slackProblem(params.get('error'));
  if (!problem) return null;
  return (
    <Alert
      kind="error"
      title="Slack"
      onDismiss={() => {
        params.delete('error');
        setParams(params, { replace: true });
      }}
    >
      {problem}
    </Alert>
  );
}
