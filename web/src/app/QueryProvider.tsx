// The data cache's provider, in a chunk of its own: the sign-in and consent
// pages fetch without it and so never load TanStack Query (App.tsx).
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './queryClient';

export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
