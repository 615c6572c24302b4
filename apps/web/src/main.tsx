import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { captureLoginParams } from './platform/auth/loginParams';
import './app/app.css';

// First: a sign-in link's password leaves the address bar and the history before anything runs.
captureLoginParams();
const root = document.getElementById('root');
if (!root) throw new Error('#root missing');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
