import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MemberApp } from './MemberApp';
import './member.css';

// The member app at /m (docs/members.md): its own entry, no console code.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MemberApp />
  </StrictMode>,
);

if ('serviceWorker' in navigator && location.protocol === 'https:') {
  void navigator.serviceWorker.register('/m/sw.js', { scope: '/m/' }).catch(() => undefined);
}
