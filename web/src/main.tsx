// Entry point. Mantine's CSS comes from the package and is bundled: the page
// loads nothing from third parties (CSP default-src 'self'). Only the part the
// first pages use is loaded here (styles/mantine-first.css); the rest comes
// with the shell and the other full pages.
import './styles/mantine-first.css';
import './styles.css';
import { ready } from './app/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

// A Chinese reader's texts are fetched first, so the page never flashes English.
void ready.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
