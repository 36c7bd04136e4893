/** Entry of the console bundle. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { storeToken } from './api';
import { takeAuthTokenFromUrl } from './lib/rules';
import { AppRoutes } from './routes';
import { SessionProvider } from './session/session';
import './styles.css';
import './scenes/settings/settings.css';
import './scenes/settings/feature-tabs.css';
import './scenes/settings/answers/answers.css';
import 'uplot/dist/uPlot.min.css';
import './scenes/reports/reports.css';
import './scenes/account/team.css';

// A sign-in that happened elsewhere (team chat sign-up) hands the token over in the URL: keep it, then set up.
const handedOver = takeAuthTokenFromUrl(window.location.href);
if (handedOver) {
  storeToken(handedOver.token);
  window.history.replaceState(null, '', handedOver.cleanHref);
}

// The server answers an unknown page under /app (404) with the console: show the console's Page Not Found.
if (!/^\/app\/(index\.html)?$/.test(window.location.pathname)) {
  window.history.replaceState(null, '', '/app/#/not-found');
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <SessionProvider>
      <AppRoutes />
    </SessionProvider>
  </StrictMode>,
);
